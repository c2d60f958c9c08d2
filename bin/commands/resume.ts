/**
 * `ooda resume`: continues the latest session of the store — its mind, its
 * cycle count and its event seq — for up to --max-cycles more cycles.
 */
import { startPersistentProgram } from '../../streams/index.js';
import { log, UsageError, withSignals, type Command } from '../cli.js';
import { DEFAULT_DB } from '../store.js';
import { parseRun, RUN_USAGE } from './run.js';

export const resume: Command = {
  summary: 'continue the latest session of the store (--max-cycles N more cycles)',
  usage: RUN_USAGE.replace('ooda run [--goal TEXT]... [options]', 'ooda resume [--max-cycles N] [options]')
    .replace('Runs the agent:', 'Restores the latest session of the store and continues it:')
    .replace('  --max-cycles N      stop after N cycles (default 1000)', '  --max-cycles N      run at most N more cycles (default 1000)'),
  async run(argv) {
    const { options, store } = parseRun(argv, { db: DEFAULT_DB });
    if (!store) throw new UsageError('resume needs a store: --no-db cannot be used');
    if (store.fresh) throw new UsageError('resume continues a session: --fresh cannot be used (use ooda run --fresh)');
    const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
    const program = await startPersistentProgram(options, { ...store, requireSession: true }, io, log);
    const code = await withSignals(program.stop, program.done);
    log(`session ${options.session} ended: ${await program.done} at cycle ${program.agent.mind.cycle}`);
    return code;
  },
};
