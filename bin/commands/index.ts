/**
 * The CLI's commands by name; each lives in its own file.
 */
import type { Command } from '../command.js';
import { consolidate } from './consolidate.js';
import { cycle } from './cycle.js';
import { demo } from './demo.js';
import { events } from './events.js';
import { plan } from './plan.js';
import { prune } from './prune.js';
import { recall } from './recall.js';
import { reflect } from './reflect.js';
import { repl } from './repl.js';
import { replay } from './replay.js';
import { resume } from './resume.js';
import { run } from './run.js';
import { sessions } from './sessions.js';

export const COMMANDS: Record<string, Command> = { run, cycle, resume, demo, plan, reflect, repl, replay, sessions, events, recall, consolidate, prune };
