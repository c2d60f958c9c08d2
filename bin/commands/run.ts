/**
 * `ooda run`: runs the agent over goals from flags and NDJSON signals on
 * stdin, printing events as NDJSON (or a readable log) on stdout.
 */
import { startProgram, type AgentConfig } from '../../streams/index.js';
import { intFlag, loadConfig, log, parseFlags, UsageError, withSignals, type Command } from '../cli.js';

export const RUN_USAGE = `usage: ooda run [--goal TEXT]... [options]

Runs the agent: goals from --goal, signals as NDJSON on stdin (when stdin is
not a terminal), events as NDJSON on stdout, logs on stderr.

options:
  --goal TEXT         add a goal (repeatable)
  --max-cycles N      stop after N cycles (default 1000)
  --heartbeat MS      heartbeat period in ms, 0 = off (default 60000)
  --pace MS           pause between cycles in ms (default 0: back to back)
  --vitals MS         sense the process's own heap and event-loop delay every MS (default: the heartbeat period)
  --kg FILE           read signals (usually facts) from an NDJSON file first (repeatable)
  --config FILE       JSON config file (layers: defaults < file < OODA_* environment < flags)
  --seed N            seed for ids and randomness (default 1)
  --session ID        session id (default: derived from the start time)
  --format FMT        ndjson (default) or pretty
  --no-stdin          do not read stdin
  -h, --help          this help

exit codes: 0 done, 2 usage or config error, 130 SIGINT, 143 SIGTERM`;

export const RUN_FLAGS = {
  goal: { type: 'string', multiple: true },
  'max-cycles': { type: 'string' },
  heartbeat: { type: 'string' },
  pace: { type: 'string' },
  vitals: { type: 'string' },
  kg: { type: 'string', multiple: true },
  config: { type: 'string' },
  seed: { type: 'string' },
  session: { type: 'string' },
  format: { type: 'string' },
  'no-stdin': { type: 'boolean' },
} as const;

export interface RunDefaults {
  goals?: string[];
  files?: string[];
  format?: 'ndjson' | 'pretty';
  readStdin?: boolean;
}

/** Parses `run`-style flags into program options; shared by `run` and `demo`. */
export function parseRun(argv: string[], defaults: RunDefaults = {}) {
  const { values } = parseFlags(argv, RUN_FLAGS);
  const config: AgentConfig = loadConfig(values.config, {
    maxCycles: intFlag('max-cycles', values['max-cycles']),
    heartbeatMs: intFlag('heartbeat', values.heartbeat),
    paceMs: intFlag('pace', values.pace),
    seed: intFlag('seed', values.seed, { min: -2147483648 }),
  });
  const format = values.format ?? defaults.format ?? 'ndjson';
  if (format !== 'ndjson' && format !== 'pretty') throw new UsageError(`--format: expected ndjson or pretty, got ${JSON.stringify(format)}`);
  return {
    help: values.help === true,
    options: {
      config,
      goals: [...(defaults.goals ?? []), ...(values.goal ?? [])],
      files: [...(defaults.files ?? []), ...(values.kg ?? [])],
      session: values.session ?? defaultSessionId(),
      format: format as 'ndjson' | 'pretty',
      readStdin: values['no-stdin'] ? false : (defaults.readStdin ?? !process.stdin.isTTY),
      vitalsMs: intFlag('vitals', values.vitals) ?? config.heartbeatMs,
    },
  };
}

/** A session id from the start time (the CLI is allowed the wall clock; the agent is not). */
export function defaultSessionId(): string {
  return `s-${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${process.pid}`;
}

export const run: Command = {
  summary: 'run the agent over --goal flags and NDJSON on stdin',
  usage: RUN_USAGE,
  async run(argv) {
    const { help, options } = parseRun(argv);
    if (help) {
      process.stdout.write(`${RUN_USAGE}\n`);
      return 0;
    }
    const program = startProgram(options, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
    log(`session ${options.session} started (max ${options.config.maxCycles} cycles)`);
    const code = await withSignals(program.stop, program.done);
    log(`session ${options.session} ended: ${await program.done} after ${program.agent.mind.cycle} cycle(s)`);
    return code;
  },
};
