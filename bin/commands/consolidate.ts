/**
 * `ooda consolidate`: resumes the latest session just to run the
 * `consolidate` command (seed 001: high-relevance working memory becomes
 * episodes), records it and saves; events as NDJSON on stdout.
 */
import { Readable } from 'node:stream';
import { startPersistentProgram } from '../../streams/index.js';
import { loadConfig, log, parseFlags, type Command } from '../cli.js';
import { DEFAULT_DB, STORE_FLAGS, STORE_USAGE, storeOptions } from '../store.js';
import { defaultSessionId } from './run.js';

const USAGE = `usage: ooda consolidate [--db FILE] [--config FILE]

Continues the latest session of the store for one signal, the consolidate
command, without running cycles, and saves the result. Prints the events as
NDJSON and the outcome on stderr.

options:
${STORE_USAGE}
  --config FILE       JSON config file
  -h, --help          this help`;

export const consolidate: Command = {
  summary: 'consolidate the latest session\u2019s working memory into episodes',
  usage: USAGE,
  async run(argv) {
    const { values } = parseFlags(argv, { ...STORE_FLAGS, config: { type: 'string' } });
    const config = loadConfig(values.config, { maxCycles: 0, heartbeatMs: 0 });
    const session = defaultSessionId();
    const command = Readable.from([`${JSON.stringify({ type: 'command', command: 'consolidate' })}\n`]);
    const program = await startPersistentProgram(
      { config, goals: [], files: [], session, format: 'ndjson', readStdin: true, vitalsMs: 0 },
      { ...storeOptions(values.db ?? DEFAULT_DB, undefined), requireSession: true },
      { stdin: command, stdout: process.stdout, stderr: process.stderr },
      log,
    );
    let result = 'no result';
    program.events$.subscribe((event) => {
      if (event.kind === 'command') result = event.result;
    });
    await program.done;
    log(`session ${session}: ${result}`);
    return 0;
  },
};
