/**
 * `ooda cycle` (seed 001: `agent cycle --goal "Find mammals"`): runs exactly
 * one OODA cycle and stops. It is `run` with the cycle limit fixed at one more
 * cycle, whatever a config file or `OODA_MAX_CYCLES` says: on a store it
 * resumes the latest session (unless --fresh), so repeated calls step one
 * persisted mind a cycle at a time.
 */
import { defineCommand } from '../command.js';
import { withoutFlags } from '../flags.js';
import { parseRun, RUN_DEFAULTS, RUN_EXIT_CODES, runFlags, runSession } from './run.js';

export const cycle = defineCommand({
  summary: 'run exactly one cycle (on a store, one more cycle of its latest session)',
  about: `usage: ooda cycle [--goal TEXT]... [options]

Runs one OODA cycle: goals from --goal, signals as NDJSON on stdin (when stdin
is not a terminal, read to their end), events as NDJSON on stdout, logs on
stderr. On a store (default ${RUN_DEFAULTS.db}) it continues the latest
session, as 'ooda run' does, so each call adds one cycle to the saved mind.`,
  flags: withoutFlags(runFlags(RUN_DEFAULTS), 'max-cycles'),
  refused: { 'max-cycles': 'it runs one cycle; ooda run --max-cycles N runs N' },
  footer: RUN_EXIT_CODES,
  // As a flag, the limit wins over a config file and OODA_MAX_CYCLES.
  run: async (values) => runSession(await parseRun({ ...values, 'max-cycles': '1' }, RUN_DEFAULTS)),
});
