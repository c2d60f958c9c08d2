/**
 * The `save` command of a persistent session. It only reports the save: the
 * snapshot itself is taken by the session's recorder as the command enters
 * (streams/session.ts), which marks the signal when it could not be taken
 * (`meta.snapshotFailed`), so a replay, which has no store, reports it the same.
 */
import { record } from './cycle.js';
import type { CommandHandler } from './runtime.js';

export const saveCommand: [string, CommandHandler] = [
  'save',
  (runtime, cycle) => {
    if (cycle.signal.meta.snapshotFailed !== undefined) return `not saved at cycle ${runtime.mind.cycle}: the snapshot could not be taken (see the error)`;
    record(runtime, cycle, 'session', { state: 'saved', reason: 'save command', cycles: runtime.mind.cycle });
    return `saved at cycle ${runtime.mind.cycle}`;
  },
];
