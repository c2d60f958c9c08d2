/**
 * `ooda run`: runs the agent over goals from flags and NDJSON signals on
 * stdin, printing events as NDJSON (or a readable log) on stdout. Its flags
 * and their parsing are shared with `ooda resume` and `ooda demo`, each with
 * its own defaults.
 */
import { defaultConfig, hostProblem, originProblem, readText, startPersistentProgram, startProgram, tokenProblem, WsServer, type AgentConfig, type Resumed, type RunningProgram, type StartUp } from '../../streams/index.js';
import { fstatSync } from 'node:fs';
import { configFileLayer, intFlag, loadConfig, log, msFlag, readableFiles, textFlag, textFlags, UsageError, type FlagValues } from '../cli.js';
import { defineCommand } from '../command.js';
import { withSignals } from '../lifecycle.js';
import type { Flags } from '../flags.js';
import { DEFAULT_DB, storeOptions, synchronousFlag } from '../store.js';

/** What `run`, `resume` and `demo` differ in. */
export interface RunDefaults {
  /** Config values under the config file, the environment and the flags. */
  maxCycles: number;
  heartbeatMs: number;
  format: 'ndjson' | 'pretty';
  /** Read stdin (when it is not a terminal) unless --no-stdin; false: never, and no --no-stdin flag. */
  stdin: boolean;
  /** Persist to this store unless --no-db; undefined: only when --db is given. */
  db?: string;
  /** Goals and knowledge files added before those of the flags. */
  goals?: string[];
  files?: string[];
}

export const RUN_DEFAULTS: RunDefaults = { maxCycles: defaultConfig().maxCycles, heartbeatMs: defaultConfig().heartbeatMs, format: 'ndjson', stdin: true, db: DEFAULT_DB };

export const RUN_EXIT_CODES = 'exit codes: 0 done, 1 store error or stdout not writable, 2 usage or config error, 130 SIGINT, 143 SIGTERM, 129 SIGHUP';

/** The flags of `run`, their help saying the given defaults. */
export function runFlags(d: RunDefaults) {
  return {
    goal: { type: 'string', multiple: true, arg: 'TEXT', help: 'add a goal (repeatable)', aliases: ['goals'] },
    'max-cycles': { type: 'string', arg: 'N', help: `stop after N cycles (default ${d.maxCycles})` },
    heartbeat: { type: 'string', arg: 'MS', help: `heartbeat period in ms, 0 = off (default ${d.heartbeatMs})` },
    pace: { type: 'string', arg: 'MS', help: 'pause between cycles in ms (default 0: back to back)' },
    vitals: { type: 'string', arg: 'MS', help: 'sense the process\u2019s own heap and event-loop load every MS (default: the heartbeat period)' },
    kg: { type: 'string', multiple: true, arg: 'FILE', help: 'read signals (usually facts) from an NDJSON file first (repeatable)' },
    config: { type: 'string', arg: 'FILE', help: "JSON config file (layers: defaults < a resumed session's config < file < OODA_* environment < flags)" },
    seed: { type: 'string', arg: 'N', help: `seed for ids and randomness (default ${defaultConfig().seed})` },
    session: { type: 'string', arg: 'ID', help: 'session id (default: derived from the start time)' },
    format: { type: 'string', arg: 'FMT', help: `ndjson or pretty (default ${d.format})` },
    'no-stdin': { type: 'boolean', help: 'do not read stdin' },
    ws: { type: 'string', arg: 'PORT', help: 'serve the live dashboard at http://127.0.0.1:PORT/ and a WebSocket at /ws\n(0: any free port); the run then stays alive until stopped or max cycles' },
    host: { type: 'string', arg: 'ADDR', help: 'address for --ws (default 127.0.0.1; anything else exposes the agent)' },
    token: { type: 'string', arg: 'TOKEN', help: 'control token WebSocket clients need to send signals (default: generated, printed on stderr);\nother local users can read it in the process list: --token-file keeps it out' },
    'token-file': { type: 'string', arg: 'FILE', help: 'read the control token from FILE (its first line), instead of --token' },
    origin: { type: 'string', multiple: true, arg: 'ORIGIN', help: 'let web pages from ORIGIN (e.g. http://localhost:3000, or *) read and send\nover --ws besides the dashboard itself (repeatable)' },
    'allow-host': { type: 'string', multiple: true, arg: 'NAME', help: 'let --ws answer requests addressed to NAME (e.g. agent.lan, or *) besides IP addresses\nand localhost; others are refused, so a DNS-rebinding site cannot read the agent (repeatable)' },
    'max-clients': { type: 'string', arg: 'N', help: 'most WebSocket clients at once for --ws (default 128)' },
    db: { type: 'string', arg: 'FILE', help: `SQLite store (default ${d.db ?? 'none: nothing is persisted'}; :memory: allowed); resumes its latest session` },
    fresh: { type: 'boolean', help: 'start a new mind even when the store holds a session' },
    'no-db': { type: 'boolean', help: 'do not persist' },
    synchronous: { type: 'string', arg: 'MODE', help: 'normal (default) or full: SQLite\u2019s durability of the last commits on power loss' },
  } as const satisfies Flags;
}

/** Where `--ws` should listen, parsed from the flags. */
export interface WsSpec {
  port: number;
  host: string;
  token?: string;
  origins?: string[];
  hosts?: string[];
  maxClients?: number;
}

/** What {@link parseRun} makes of `run`-style flags. */
export type ParsedRun = Awaited<ReturnType<typeof parseRun>>;

/** Parses `run`-style flags (any subset of {@link runFlags}) into program options, reading `--config`'s and `--token-file`'s files. */
export async function parseRun(values: FlagValues<ReturnType<typeof runFlags>>, defaults: RunDefaults) {
  const flags = {
    maxCycles: intFlag('max-cycles', values['max-cycles']),
    heartbeatMs: msFlag('heartbeat', values.heartbeat),
    paceMs: msFlag('pace', values.pace),
    seed: intFlag('seed', values.seed, { min: -2147483648 }),
  };
  const commandDefaults = { maxCycles: defaults.maxCycles, heartbeatMs: defaults.heartbeatMs };
  const file = await configFileLayer(values.config);
  const config = loadConfig(file, flags, commandDefaults);
  /** A resumed session runs with its own config under this command's file (as read above), environment and flags. */
  const resumeConfig = (resumed: AgentConfig): AgentConfig => loadConfig(file, flags, commandDefaults, resumed);
  const vitalsMs = msFlag('vitals', values.vitals);
  const format = values.format ?? defaults.format;
  if (format !== 'ndjson' && format !== 'pretty') throw new UsageError(`--format: expected ndjson or pretty, got ${JSON.stringify(format)}`);
  const ws = await wsSpec(values);
  synchronousFlag(values.synchronous); // a bad mode is an error even where no store would use it
  if (values['no-db'] && values.db !== undefined) throw new UsageError('--no-db cannot be combined with --db');
  const db = values['no-db'] ? undefined : (values.db ?? defaults.db);
  const storeOnly = values.fresh ? '--fresh' : values.synchronous !== undefined ? '--synchronous' : undefined;
  if (db === undefined && storeOnly) {
    throw new UsageError(values['no-db'] ? `--no-db cannot be combined with ${storeOnly}` : `${storeOnly} needs a store: add --db FILE`);
  }
  const parsed = {
    ws,
    /** Whether --heartbeat was given: the auto-save warning then names it. */
    heartbeatFlag: values.heartbeat !== undefined,
    store: db === undefined ? undefined : { ...storeOptions(db, values.synchronous), fresh: values.fresh === true, resumeConfig },
    options: {
      config,
      goals: [...(defaults.goals ?? []), ...textFlags('goal', values.goal, 'a goal description')],
      files: [...(defaults.files ?? []), ...readableFiles('kg', values.kg)],
      session: sessionFlag(values.session) ?? defaultSessionId(),
      format: format as 'ndjson' | 'pretty',
      readStdin: defaults.stdin && !values['no-stdin'] && !process.stdin.isTTY && stdinReadable(),
      // Without --vitals, the heartbeat period of the config the run ends up with (a resumed session's too: see resumeConfig).
      ...(vitalsMs === undefined ? {} : { vitalsMs }),
    },
  };
  return parsed;
}

/** The `--ws` server's address and options from the flags, or undefined without `--ws`; its other flags need it. */
async function wsSpec(values: FlagValues<ReturnType<typeof runFlags>>): Promise<WsSpec | undefined> {
  const port = intFlag('ws', values.ws);
  if (port === undefined) {
    const given = (['host', 'token', 'token-file', 'origin', 'allow-host', 'max-clients'] as const).find((name) => values[name] !== undefined);
    if (given) throw new UsageError(`--${given} needs --ws PORT`);
    return undefined;
  }
  if (port > 65535) throw new UsageError(`--ws: expected a port from 0 to 65535, got ${port}`);
  const host = textFlag('host', values.host, 'an address') ?? '127.0.0.1';
  const token = await tokenFlag(values.token, values['token-file']);
  for (const origin of values.origin ?? []) {
    const problem = originProblem(origin);
    if (problem) throw new UsageError(`--origin: ${problem}`);
  }
  for (const name of values['allow-host'] ?? []) {
    const problem = hostProblem(name);
    if (problem) throw new UsageError(`--allow-host: ${problem}`);
  }
  const maxClients = intFlag('max-clients', values['max-clients'], { min: 1 });
  return {
    port,
    host,
    ...(token === undefined ? {} : { token }),
    ...(values.origin === undefined ? {} : { origins: [...values.origin] }),
    ...(values['allow-host'] === undefined ? {} : { hosts: [...values['allow-host']] }),
    ...(maxClients === undefined ? {} : { maxClients }),
  };
}

/**
 * The control token from `--token`, or from the first line of `--token-file`'s
 * file (which other users cannot read in the process list; a named pipe or
 * `<(cmd)` is read without blocking: see streams/readableFile.ts); checked as
 * the server checks it.
 */
async function tokenFlag(given: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (given !== undefined && file !== undefined) throw new UsageError('--token and --token-file: give one of them');
  if (file === undefined) {
    const issue = given === undefined ? null : tokenProblem(given);
    if (issue) throw new UsageError(`--token: ${issue}`);
    return given;
  }
  let text: string;
  try {
    text = await readText(file);
  } catch (error) {
    throw new UsageError(`--token-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const token = text.split(/\r?\n/)[0]!;
  const issue = tokenProblem(token);
  if (issue) throw new UsageError(`--token-file: the token on the first line of ${file}: ${issue}`);
  return token;
}

/**
 * Whether stdin can be read as lines: a directory (`ooda run < folder`) is a
 * usage error, since Node reads it as an empty stream and the run would start
 * as if no input had been given.
 */
function stdinReadable(): boolean {
  let directory = false;
  try {
    directory = fstatSync(0).isDirectory();
  } catch {
    return true;
  }
  if (directory) throw new UsageError('stdin is a directory, not NDJSON lines: redirect a file or a pipe, or pass --no-stdin');
  return true;
}

/**
 * Auto-save runs on the heartbeat: a run on a store whose heartbeat is off
 * never auto-saves, which is said at start unless auto-save is off too. Said
 * of the config the run ended up with, a resumed session's included.
 */
function warnAutoSaveOff({ heartbeatMs, autoSaveMs }: AgentConfig, heartbeatFlag: boolean): void {
  if (heartbeatMs > 0 || autoSaveMs === 0) return;
  const off = heartbeatFlag ? '--heartbeat 0 turns off' : 'heartbeatMs 0 turns off (--heartbeat MS turns it on)';
  log(`autoSaveMs ${autoSaveMs} has no effect: auto-save runs on the heartbeat, which ${off}`);
}

/**
 * Starts what the parsed flags describe: the `--ws` server, then the program
 * on its store (resuming only an existing session when `requireSession`) or
 * without one, unless `startUp` is interrupted first. When the program does
 * not start (its store cannot be opened, the start-up was interrupted), the
 * server is closed, or its listening would keep the process alive.
 */
export async function startRun({ options, ws, store, heartbeatFlag }: ParsedRun, startUp: StartUp, requireSession = false): Promise<RunningProgram> {
  const server = await listenWs(ws);
  const withWs = { ...options, ...(server ? { ws: server } : {}) };
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  try {
    if (!store) {
      startUp.check();
      return startProgram(withWs, io);
    }
    // Only `run` resumes implicitly; `resume` asked for it.
    const resumeHint = requireSession ? {} : { resumeHint: '--fresh starts a new mind' };
    const program = await startPersistentProgram(withWs, { ...store, requireSession, ...resumeHint }, io, log, startUp);
    warnAutoSaveOff(program.agent.config, heartbeatFlag);
    return program;
  } catch (error) {
    await server?.close('the run did not start');
    throw error;
  }
}

/**
 * Starts the `--ws` server and prints its address (and a generated token) on
 * stderr; a port already in use is a usage error naming the address.
 */
async function listenWs(spec: WsSpec | undefined): Promise<WsServer | undefined> {
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

/**
 * A new session's id from --session: not empty, without control characters
 * (a newline or a tab in it broke `ooda sessions`' table and every log line
 * naming the session), and without U+FFFD (Node puts it in place of bytes of
 * the argument that are not UTF-8: the id would silently differ from the one
 * typed).
 */
function sessionFlag(raw: string | undefined): string | undefined {
  const id = textFlag('session', raw, 'a session id');
  if (id !== undefined && /[\u0000-\u001f\u007f-\u009f]/.test(id)) {
    throw new UsageError(`--session: a session id may not contain control characters (newline, tab, …), got ${escapedControls(id)}`);
  }
  if (id?.includes('\ufffd')) {
    throw new UsageError(`--session: a session id may not contain U+FFFD, which stands for bytes that are not UTF-8 (what the shell passed was not UTF-8?), got ${escapedControls(id)}`);
  }
  return id;
}

/** `text` JSON-quoted, with DEL, the C1 controls and U+FFFD escaped too (JSON leaves them as they are: a terminal shows nothing, or a stray mark). */
function escapedControls(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\ufffd]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A session id from the start time (the CLI is allowed the wall clock; the agent is not). */
export function defaultSessionId(): string {
  return `s-${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${process.pid}`;
}

export const run = defineCommand({
  summary: 'run the agent over --goal flags and NDJSON on stdin',
  about: `usage: ooda run [--goal TEXT]... [options]

Runs the agent: goals from --goal, signals as NDJSON on stdin (when stdin is
not a terminal), events as NDJSON on stdout, logs on stderr.`,
  flags: runFlags(RUN_DEFAULTS),
  footer: RUN_EXIT_CODES,
  run: async (values) => runSession(await parseRun(values, RUN_DEFAULTS)),
});

/**
 * Why a resumed session starts paused: its snapshot was saved paused, or (after
 * a crash) the signals re-applied after that snapshot, a `pause` command among
 * them, left it paused.
 */
function pausedBy(resumed: Resumed | undefined): string {
  if (!resumed?.reapplied || resumed.savedPaused) return 'as it was saved';
  return `as the ${resumed.reapplied} signal(s) re-applied after its last snapshot left it`;
}

/**
 * `run` and `resume` (`requireSession`): starts the run under signal
 * handling, says when it started and ended, and returns the exit code.
 */
export async function runSession(parsed: ParsedRun, requireSession = false): Promise<number> {
  const { session } = parsed.options;
  const { code, program } = await withSignals(parsed, async (startUp) => {
    const started = await startRun(parsed, startUp, requireSession);
    // A resumed session continues its cycle count (0 too: one stopped before its first cycle), and --max-cycles counts this run's cycles.
    const { firstCycle, resumed } = started;
    const limit = resumed ? `at cycle ${firstCycle}, max ${started.agent.config.maxCycles - firstCycle} more` : `max ${started.agent.config.maxCycles} cycles`;
    // A session saved while paused resumes paused: said at once, not only by its end's '(agent paused)'.
    const paused = started.agent.mind.paused ? `; it is paused, ${pausedBy(started.resumed)}: no cycle runs until a resume command ({"type":"command","command":"resume"})` : '';
    // Said as the run starts: on a store, once the session's start is committed.
    void started.started.then(() => log(`session ${session} started (${limit})${parsed.store ? ` on ${parsed.store.db}` : ''}${paused}`));
    return started;
  });
  if (program) log(`session ${session} ended: ${await program.done} after ${cyclesRun(program)}`);
  return code;
}

/** The cycles a run did, as its end says them: `3 cycle(s)`, or continuing a stored session `3 cycle(s), at cycle 6`. */
export function cyclesRun({ agent, firstCycle, resumed }: RunningProgram): string {
  const { cycle } = agent.mind;
  return `${cycle - firstCycle} cycle(s)${resumed ? `, at cycle ${cycle}` : ''}`;
}
