/**
 * `ooda consolidate`: resumes the latest session just to run the
 * `consolidate` command (seed 001: high-relevance working memory becomes
 * episodes), records it and saves; events as NDJSON on stdout. The command
 * is the CLI's own signal (source `cli`), and the session ends with the reason
 * "consolidate command done". SIGINT / SIGTERM stop it as they stop `run`
 * (lifecycle.ts).
 */
import { startPersistentProgram } from '../../streams/index.js';
import { configFileLayer, loadConfig, log } from '../cli.js';
import { defineCommand } from '../command.js';
import { withSignals } from '../lifecycle.js';
import { DEFAULT_DB, STORE_FLAGS, storeOptions } from '../store.js';
import { defaultSessionId } from './run.js';

/** Why the session ends: the command it was resumed for has run. */
const DONE = 'consolidate command done';

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
    // No cycles, whatever the config; otherwise the session's own, under --config and the environment.
    // No heartbeat or vitals either (ambient: false), but the heartbeatMs stays in the config the session records, for the next resume.
    const ownRun = { maxCycles: 0 };
    const file = await configFileLayer(values.config);
    const config = loadConfig(file, ownRun);
    const session = defaultSessionId();
    const db = values.db ?? DEFAULT_DB;
    let result = 'no result';
    let sent = false;
    const { code, program } = await withSignals({ store: { db }, options: { session } }, async (startUp) => {
      const started = await startPersistentProgram(
        { config, goals: [], files: [], session, format: 'ndjson', readStdin: false, ambient: false },
        { ...storeOptions(db, undefined), requireSession: true, resumeConfig: (resumed) => loadConfig(file, ownRun, {}, resumed) },
        { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
        log,
        startUp,
      );
      started.events$.subscribe((event) => {
        if (event.kind !== 'command') return;
        result = event.result;
        started.stop(DONE);
      });
      // The run was connected in this task, so it cannot have settled yet: the command is processed before it stops.
      sent = started.agent.inject({ type: 'command', command: 'consolidate', depth: 0, meta: { source: 'cli' } });
      return started;
    });
    if (!program) return code;
    const reason = await program.done;
    if (!sent) throw new Error(`consolidate: session ${session} ended (${reason}) before the consolidate command was sent`);
    log(`session ${session}: ${result}`);
    return code;
  },
});
