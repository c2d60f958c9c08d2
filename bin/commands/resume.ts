/**
 * `ooda resume`: continues the latest session of the store — its mind, its
 * cycle count and its event seq — for up to --max-cycles more cycles. It takes
 * `run`'s flags except those that would not continue a stored session
 * (--fresh, --no-db).
 */
import { defineCommand } from '../command.js';
import { withoutFlags } from '../flags.js';
import { parseRun, RUN_DEFAULTS, RUN_EXIT_CODES, runFlags, runSession } from './run.js';

export const resume = defineCommand({
  summary: 'continue the latest session of the store (--max-cycles N more cycles)',
  about: `usage: ooda resume [--max-cycles N] [options]

Restores the latest session of the store and continues it: goals from --goal,
signals as NDJSON on stdin (when stdin is not a terminal), events as NDJSON on
stdout, logs on stderr.`,
  flags: {
    ...withoutFlags(runFlags(RUN_DEFAULTS), 'fresh', 'no-db'),
    'max-cycles': { type: 'string', arg: 'N', help: `run at most N more cycles (default ${RUN_DEFAULTS.maxCycles})` },
    // Not run's ':memory: allowed': an in-memory store holds no session to resume, and is refused.
    db: { type: 'string', arg: 'FILE', help: `SQLite store whose latest session to continue (default ${RUN_DEFAULTS.db}; not :memory:, which holds none)` },
  },
  refused: {
    fresh: 'it continues the stored session; ooda run --fresh starts a new mind',
    'no-db': 'it continues a session of the store; ooda run --no-db runs without one',
  },
  footer: RUN_EXIT_CODES,
  run: async (values) => runSession(await parseRun(values, RUN_DEFAULTS), true),
});
