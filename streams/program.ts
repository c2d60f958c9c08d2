/**
 * The program behind the CLI's `run` and `demo`: picks the sources (goals from
 * flags, NDJSON on stdin, a knowledge file, heartbeat, vitals) and the sinks
 * (NDJSON or a readable log on stdout), runs the agent and reports how it ended.
 * Data goes to stdout, logs to stderr. On a store the run starts once the
 * session's start (its row and first snapshot) is committed, so a crash at
 * any moment of the run leaves a session `ooda resume` can continue.
 */
import type { Readable, Writable } from 'node:stream';
import { combineLatest, concat, defer, distinctUntilChanged, filter, finalize, first, firstValueFrom, lastValueFrom, map, skip, startWith, type Observable } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { heartbeat } from '../sources/heartbeat.js';
import { fromGoals } from '../sources/goals.js';
import { fromNdjson } from '../sources/ndjson.js';
import { vitals } from '../sources/vitals.js';
import { fromWebSocket } from '../sources/wsInput.js';
import { toNdjson } from '../sinks/ndjson.js';
import { toPrettyLog } from '../sinks/prettyLog.js';
import { toWebSocket } from '../sinks/toWebSocket.js';
import type { WsServer } from '../sinks/wsServer.js';
import type { AgentConfig } from './config.js';
import { createAgent, type Agent, type AgentOptions } from './createAgent.js';
import type { AgentEvent } from './events.js';
import { openReadable } from './readableFile.js';
import type { Persistence, Resumed } from './session.js';
import type { Signal, Stimulus } from './signals.js';
import { agentSnapshot } from './snapshot.js';

export interface ProgramOptions {
  config: AgentConfig;
  goals: string[];
  session: string;
  format: 'ndjson' | 'pretty';
  /** Read NDJSON signals from stdin. */
  readStdin: boolean;
  /** NDJSON files of signals (usually facts) read before stdin. */
  files: string[];
  /** Vitals sensor period in ms; 0 turns it off. Default: the config's `heartbeatMs`. */
  vitalsMs?: number;
  /**
   * Start the heartbeat and the vitals sensor (default true). False starts
   * neither, whatever the config says, and the session still records the
   * config's `heartbeatMs` as its own (`ooda consolidate`: one command, and
   * the session resumed after it keeps its heartbeat).
   */
  ambient?: boolean;
  agent?: Omit<AgentOptions, 'config' | 'session'>;
  /**
   * A listening WebSocket server (dashboard + /ws): events are published to its
   * clients, their signals are an input, and the run stays alive until stopped
   * or max cycles. The server is closed when the run ends.
   */
  ws?: WsServer;
  /**
   * Persist the run to a SQLite store (see streams/session.ts; opened by the
   * caller, whose `config` should be `persistence.config`): signals, events and
   * snapshots are recorded, the sink's backpressure holds the driver, stdin and
   * WebSocket signals, and the store is flushed and closed before `done` resolves.
   */
  persistence?: Persistence;
}

export interface ProgramIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

export interface RunningProgram {
  readonly agent: Agent;
  /** The mind's cycle count as this run started: 0 for a new mind, the cycle a resumed session continues from. */
  readonly firstCycle: number;
  readonly events$: Observable<AgentEvent>;
  /** Resolves as the run starts (its `started` event): on a store, once the session's start is committed. */
  readonly started: Promise<void>;
  /** Resolves with the reason the run ended, after every sink has flushed. */
  readonly done: Promise<string>;
  /** Rows (and statements) queued for the store and not written yet, 0 without a store: what exiting now, or a store that fails at the end, loses. */
  readonly unwrittenRows: number;
  /**
   * Whether the store holds the session (its row and first snapshot are
   * committed: `ooda resume` can continue it); false without a store, and
   * before the store's first write commits.
   */
  readonly sessionStored: boolean;
  /** Whether the run has ended and its store is written and closed (the session ended in it); stdout may still be draining. */
  readonly storeClosed: boolean;
  /** The stored session this run continues, if any (on a store: see {@link Persistence.resumed}). */
  readonly resumed: Resumed | undefined;
  stop(reason: string): void;
}

/**
 * The signals of NDJSON files (usually facts), then goals: knowledge loads
 * before the goals that use it. Each file is opened in turn, when the one
 * before it has ended: a named pipe's writer is waited for then, and the run
 * can stop meanwhile. `files` must be an array of file names (one
 * name passed as is would fail as "files.map is not a function"); a bad one
 * throws, naming it.
 */
export function knowledgeAndGoals(files: readonly string[], goals: readonly string[]): Observable<Stimulus> {
  if (!Array.isArray(files)) throw new TypeError(`knowledgeAndGoals: expected an array of NDJSON file names, got ${describeValue(files)}`);
  files.forEach((file: unknown, i) => {
    if (typeof file !== 'string' || file === '') throw new TypeError(`knowledgeAndGoals: files[${i}] is not a file name (got ${describeValue(file)})`);
  });
  return concat(...files.map((file) => fromNdjsonFile(file)), fromGoals(goals));
}

/** The lines of `file`, opened when subscribed (a named pipe without blocking: see readableFile.ts) and closed when unsubscribed. */
function fromNdjsonFile(file: string): Observable<Stimulus> {
  return defer(() => {
    const stream = openReadable(file);
    return fromNdjson(stream, { source: file }).pipe(finalize(() => stream.destroy()));
  });
}

export function startProgram(options: ProgramOptions, io: ProgramIO): RunningProgram {
  const { persistence } = options;
  const agentOptions = persistence ? persistence.agentOptions(options.agent) : options.agent;
  const agent = createAgent({ ...agentOptions, config: options.config, session: options.session });
  // Knowledge files load first; then the goals, then stdin, which interleaves with the cycles.
  const stdin = options.readStdin ? [fromNdjson(io.stdin, { source: 'stdin' })] : [];
  const inputs: Observable<Stimulus>[] = [concat(knowledgeAndGoals(options.files, options.goals), ...stdin)];
  const ambient: Observable<Signal>[] = [];
  if (options.ambient !== false) {
    if (options.config.heartbeatMs > 0) ambient.push(heartbeat(options.config.heartbeatMs));
    const vitalsMs = options.vitalsMs ?? options.config.heartbeatMs;
    if (vitalsMs > 0) ambient.push(vitals(vitalsMs));
  }

  let reason = 'input ended';
  const toStdout = options.format === 'ndjson' ? toNdjson : toPrettyLog;
  const stdout = toStdout(io.stdout, { onClosed: () => agent.stop(stdout.failure ? 'stdout failed' : 'stdout closed') });
  // Backpressure: a store that falls behind, or a reader of stdout that does, holds the driver, stdin and WebSocket signals.
  const hold$ = combineLatest([...(persistence ? [persistence.hold$] : []), stdout.saturated$].map((held$) => held$.pipe(startWith(false)))).pipe(
    map((held) => held.some(Boolean)),
    distinctUntilChanged(),
  );
  stdout.saturated$.pipe(first(Boolean)).subscribe(() =>
    io.stderr.write('ooda: stdout is not being read as fast as events come: cycles, stdin and heartbeats are held while it drains (said once)\n'),
  );

  // The server's clients never end: at max cycles the run stops once what stdin had is read, not at once.
  const live = options.ws ? [fromWebSocket(options.ws, { commands: agent.runtime.commands, hold: hold$ })] : [];

  const events$ = agent.run({ inputs, live, ambient, keepAlive: options.ws !== undefined, hold: hold$ });
  if (persistence) persistence.attach(agent, events$);
  // Once attached: a resumed session's mind is restored then.
  const firstCycle = agent.mind.cycle;
  // Changes only: resuming stdin before its reader listens would lose what it reads.
  if (options.readStdin) hold$.pipe(skip(1)).subscribe((held) => (held ? io.stdin.pause() : io.stdin.resume()));
  events$.subscribe(stdout);
  if (options.ws) events$.subscribe(toWebSocket(options.ws, { snapshot: () => agentSnapshot(agent.mind, agent.session, { now: agent.runtime.now() }) }));
  events$.subscribe((event) => {
    if (event.kind === 'session' && event.state === 'stopped') reason = event.reason ?? reason;
  });
  const started = firstValueFrom(events$.pipe(filter((event) => event.kind === 'session' && event.state === 'started')), { defaultValue: undefined }).then(() => undefined);
  let storeClosed = false;
  const done = lastValueFrom(events$, { defaultValue: undefined }).then(async () => {
    // The store does not wait for stdout: a reader that has stopped reading must not keep the session from being saved and ended.
    const printed = stdout.flushed();
    try {
      await options.ws?.close('agent stopped');
      await persistence?.close(reason);
      storeClosed = persistence !== undefined;
    } finally {
      await printed;
    }
    // stdout that failed (a full disk) fails the run, once the store has everything.
    if (stdout.failure) throw stdout.failure;
    return reason;
  });
  // On a store, the run starts once the session's start (its row and first snapshot) is committed: a crash after it leaves a session to resume.
  const connect = () => void events$.connect();
  if (persistence) void persistence.sink.flushed().then(connect, connect);
  else connect();
  return {
    agent,
    firstCycle,
    events$,
    started,
    done,
    get unwrittenRows() {
      return persistence?.sink.pending ?? 0;
    },
    get sessionStored() {
      return persistence?.sessionStored ?? false;
    },
    get storeClosed() {
      return storeClosed;
    },
    resumed: persistence?.resumed,
    stop: (why) => agent.stop(why),
  };
}
