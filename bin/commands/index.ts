/**
 * The CLI's commands by name; each lives in its own file.
 */
import type { Command } from '../cli.js';
import { demo } from './demo.js';
import { plan } from './plan.js';
import { reflect } from './reflect.js';
import { repl } from './repl.js';
import { run } from './run.js';

export const COMMANDS: Record<string, Command> = { run, demo, plan, reflect, repl };
