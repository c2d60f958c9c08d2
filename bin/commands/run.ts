/**
 * `ooda run`: runs the agent over goals from flags and NDJSON signals on
 * stdin, printing events as NDJSON (or a readable log) on stdout.
 */
import { startPersistentProgram, startProgram, WsServer, type AgentConfig } from '../../streams/index.js';
import { intFlag, loadConfig, log, msFlag, parseFlags, readableFiles, textFlag, UsageError, withSignals, type Command } from '../cli.js';
import { DEFAULT_DB, storeOptions } from '../store.js';

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
  --ws PORT           serve the live dashboard at http://127.0.0.1:PORT/ and a WebSocket at /ws
                      (0: any free port); the run then stays alive until stopped or max cycles
  --host ADDR         address for --ws (default 127.0.0.1; anything else exposes the agent)
  --token TOKEN       control token WebSocket clients need to send signals (default: generated, printed on stderr)
  --db FILE           SQLite store (default ./ooda.db; :memory: allowed); resumes its latest session
  --fresh             start a new mind even when the store holds a session
  --no-db             do not persist
  --synchronous MODE  normal (default) or full: SQLite's durability of the last commits on power loss
  -h, --help          this help

exit codes: 0 done, 1 store error, 2 usage or config error, 130 SIGINT, 143 SIGTERM`;

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
  ws: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  db: { type: 'string' },
  fresh: { type: 'boolean' },
  'no-db': { type: 'boolean' },
  synchronous: { type: 'string' },
} as const;

/** Where `--ws` should listen, parsed from the flags. */
export interface WsSpec {
  port: number;
  host: string;
  token?: string;
}

export interface RunDefaults {
  goals?: string[];
  files?: string[];
  format?: 'ndjson' | 'pretty';
  readStdin?: boolean;
  /** Persist to this store unless --no-db; undefined: only when --db is given. */
  db?: string;
}

/** Parses `run`-style flags into program options; shared by `run` and `demo`. */
export function parseRun(argv: string[], defaults: RunDefaults = {}) {
  const { values } = parseFlags(argv, RUN_FLAGS);
  const config: AgentConfig = loadConfig(values.config, {
    maxCycles: intFlag('max-cycles', values['max-cycles']),
    heartbeatMs: msFlag('heartbeat', values.heartbeat),
    paceMs: msFlag('pace', values.pace),
    seed: intFlag('seed', values.seed, { min: -2147483648 }),
  });
  const format = values.format ?? defaults.format ?? 'ndjson';
  if (format !== 'ndjson' && format !== 'pretty') throw new UsageError(`--format: expected ndjson or pretty, got ${JSON.stringify(format)}`);
  const wsPort = intFlag('ws', values.ws);
  if (wsPort === undefined && (values.host !== undefined || values.token !== undefined)) {
    throw new UsageError(`--${values.host !== undefined ? 'host' : 'token'} needs --ws PORT`);
  }
  if (wsPort !== undefined && wsPort > 65535) throw new UsageError(`--ws: expected a port from 0 to 65535, got ${wsPort}`);
  if (values.token !== undefined && values.token.trim().length < 8) throw new UsageError('--token: use at least 8 characters');
  const ws: WsSpec | undefined =
    wsPort === undefined ? undefined : { port: wsPort, host: values.host ?? '127.0.0.1', ...(values.token === undefined ? {} : { token: values.token }) };
  if (values['no-db'] && (values.db !== undefined || values.fresh)) throw new UsageError('--no-db cannot be combined with --db or --fresh');
  const db = values['no-db'] ? undefined : (values.db ?? defaults.db);
  return {
    ws,
    store: db === undefined ? undefined : { ...storeOptions(db, values.synchronous), fresh: values.fresh === true },
    options: {
      config,
      goals: [...(defaults.goals ?? []), ...(values.goal ?? [])],
      files: [...(defaults.files ?? []), ...readableFiles('kg', values.kg)],
      session: textFlag('session', values.session, 'a session id') ?? defaultSessionId(),
      format: format as 'ndjson' | 'pretty',
      readStdin: values['no-stdin'] ? false : (defaults.readStdin ?? !process.stdin.isTTY),
      vitalsMs: msFlag('vitals', values.vitals) ?? config.heartbeatMs,
    },
  };
}

/**
 * Starts the `--ws` server and prints its address (and a generated token) on
 * stderr; a port already in use is a usage error naming the address.
 */
export async function listenWs(spec: WsSpec | undefined): Promise<WsServer | undefined> {
  if (!spec) return undefined;
  let server: WsServer;
  try {
    server = await WsServer.listen(spec);
  } catch (error) {
    throw new UsageError(`--ws: cannot listen on ${spec.host}:${spec.port}: ${(error as Error).message}`);
  }
  process.stderr.write(`dashboard: ${server.url}\n`);
  if (server.tokenGenerated) process.stderr.write(`token: ${server.token} (paste it in the dashboard, or open ${server.url}#token=${server.token})\n`);
  return server;
}

/** A session id from the start time (the CLI is allowed the wall clock; the agent is not). */
export function defaultSessionId(): string {
  return `s-${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${process.pid}`;
}

export const run: Command = {
  summary: 'run the agent over --goal flags and NDJSON on stdin',
  usage: RUN_USAGE,
  async run(argv) {
    const { options, ws, store } = parseRun(argv, { db: DEFAULT_DB });
    const server = await listenWs(ws);
    const withWs = { ...options, ...(server ? { ws: server } : {}) };
    const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
    const program = store ? await startPersistentProgram(withWs, store, io, log) : startProgram(withWs, io);
    log(`session ${options.session} started (max ${program.agent.config.maxCycles} cycles)${store ? ` on ${store.db}` : ''}`);
    const code = await withSignals(program.stop, program.done);
    log(`session ${options.session} ended: ${await program.done} after ${program.agent.mind.cycle} cycle(s)`);
    return code;
  },
};
