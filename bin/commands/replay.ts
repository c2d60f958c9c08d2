/**
 * `ooda replay [--session ID]`: re-runs a recorded session on virtual time and
 * compares its events with the recorded ones. Prints "identical" or the first
 * divergence (seq, expected, got); exit 1 on divergence.
 */
import { replaySession } from '../../streams/index.js';
import { parseFlags, type Command } from '../cli.js';
import { printLines } from '../output.js';
import { STORE_FLAGS, STORE_USAGE, withStore } from '../store.js';

const USAGE = `usage: ooda replay [--session ID] [--db FILE]

Re-runs a recorded session (default: the latest) from the state it started
with, feeding its recorded signals at their recorded times on virtual time,
and compares every event with the recorded one.

options:
  --session ID        the session to replay (see 'ooda sessions')
${STORE_USAGE}
  -h, --help          this help

exit codes: 0 identical, 1 divergence or store error, 2 usage error`;

export const replay: Command = {
  summary: 'replay a recorded session and check that its events are identical',
  usage: USAGE,
  async run(argv) {
    const { values } = parseFlags(argv, { ...STORE_FLAGS, session: { type: 'string' } });
    const result = await withStore(values.db, (store) => replaySession(store, values.session));
    if (result.identical) {
      await printLines([`identical: session ${result.session}, ${result.events} event(s)`]);
      return 0;
    }
    const { seq, expected, got } = result.divergence;
    await printLines([`divergence in session ${result.session} at seq ${seq}`, `  expected: ${expected}`, `  got:      ${got}`]);
    return 1;
  },
};
