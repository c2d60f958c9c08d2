/**
 * `ooda consolidate`: resumes the latest session just to run the
 * `consolidate` command (seed 001: high-relevance working memory becomes
 * episodes), records it and saves; events as NDJSON on stdout.
 */
import { Readable } from 'node:stream';
import { startPersistentProgram } from '../../streams/index.js';
import { loadConfig, log } from '../cli.js';
import { defineCommand } from '../command.js';
import { DEFAULT_DB, STORE_FLAGS, storeOptions } from '../store.js';
import { defaultSessionId } from './run.js';

export const consolidate = defineCommand({
  summary: 'consolidate the latest session\u2019s working memory into episodes',
  about: `usage: ooda consolidate [--db FILE] [--config FILE]

Continues the latest session of the store for one signal, the consolidate
command, without running cycles, and saves the result. Prints the events as
NDJSON and the outcome on stderr.`,
  flags: {
    ...STORE_FLAGS,
    config: { type: 'string', arg: 'FILE', help: 'JSON config file' },
  },
  async run(values) {
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
});
