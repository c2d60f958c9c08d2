/**
 * The `save` command of a persistent session. It only reports the save: the
 * snapshot itself is taken by the session's recorder as the command enters
 * (streams/session.ts), so a replay, which has no store, reports it the same.
 */
import { record } from './cycle.js';
import type { CommandHandler } from './runtime.js';

export const saveCommand: [string, CommandHandler] = [
  'save',
  (runtime, cycle) => {
    record(runtime, cycle, 'session', { state: 'saved', reason: 'save command', cycles: runtime.mind.cycle });
    return `saved at cycle ${runtime.mind.cycle}`;
  },
];
