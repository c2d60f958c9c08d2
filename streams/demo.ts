/**
 * The embedded demo: a knowledge base (NDJSON fact signals) and goals that
 * show the agent exploring, reasoning, decomposing and completing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './packageRoot.js';

export function demoKnowledgeFile(): string {
  return join(packageRoot(), 'demo', 'knowledge.ndjson');
}

export function demoGoals(): string[] {
  return JSON.parse(readFileSync(join(packageRoot(), 'demo', 'goals.json'), 'utf8')) as string[];
}
