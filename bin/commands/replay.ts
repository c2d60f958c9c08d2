/**
 * `ooda replay [--session ID]`: re-runs a recorded session on virtual time and
 * compares its events with the recorded ones, then its mind with the
 * snapshots the run saved. Prints "identical" or the first divergence (an
 * event's seq, or a snapshot and the path into its state; expected, got);
 * exit 1 on divergence.
 */
import { replaySession } from '../../streams/index.js';
import { defineCommand } from '../command.js';
import { printLines } from '../output.js';
import { STORE_FLAGS, withStore } from '../store.js';

export const replay = defineCommand({
  summary: 'replay a recorded session and check that its events are identical',
  about: `usage: ooda replay [--session ID] [--db FILE]

Re-runs a recorded session (default: the latest) from the state it started
with, feeding its recorded signals at their recorded times on virtual time,
and compares every event with the recorded one, then the mind it reaches
where the run saved a snapshot (a save, an auto-save, its exit) with that
snapshot.`,
  flags: {
    session: { type: 'string', arg: 'ID', help: 'the session to replay (default: the latest; see \'ooda sessions\')' },
    ...STORE_FLAGS,
  },
  footer: 'exit codes: 0 identical, 1 divergence or store error, 2 usage error',
  async run(values) {
    const result = await withStore(values.db, (store) => replaySession(store, values.session));
    if (result.identical) {
      await printLines([`identical: session ${result.session}, ${result.events} event(s)`]);
      return 0;
    }
    if ('stateDivergence' in result) {
      const { snapshot, path, expected, got } = result.stateDivergence;
      await printLines([
        `divergence in session ${result.session}: its ${result.events} event(s) are identical, but the mind differs from snapshot ${snapshot.id} (${snapshot.reason}, cycle ${snapshot.cycle}) at ${path}`,
        `  expected: ${expected}`,
        `  got:      ${got}`,
      ]);
      return 1;
    }
    const { seq, expected, got, unknownTools = [] } = result.divergence;
    const lacking =
      unknownTools.length === 0
        ? []
        : [`  the recording used tool(s) ${unknownTools.join(', ')}, which ooda replay does not have: replay a session of your own tools with replaySession(store, session, { tools }) in your program`];
    await printLines([`divergence in session ${result.session} at seq ${seq}`, `  expected: ${expected}`, `  got:      ${got}`, ...lacking]);
    return 1;
  },
});
