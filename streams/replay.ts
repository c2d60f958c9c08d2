/**
 * Replay: re-runs a recorded session — the mind state it started from, then
 * every signal it recorded, each fed at its recorded scheduler time on a
 * virtual clock, with the driver off (`drive: false`: the recorded ticks drive
 * the cycles) — and compares the events with the recorded ones. Cycles are
 * deterministic (time and randomness are injected), so a session replays
 * identically unless a tool did real I/O or the recording was altered.
 *
 * The same re-run restores a crashed session on `resume`: the last snapshot
 * plus the signals recorded after it.
 */
import { Subject, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import type { SqliteStore } from '../sinks/sqliteStore.js';
import type { EventRow, SignalRow } from '../sinks/storeSchema.js';
import { StoreError } from '../sinks/storeError.js';
import type { AgentConfig } from './config.js';
import { createAgent, type Agent, type AgentOptions } from './createAgent.js';
import type { AgentEvent } from './events.js';
import { saveCommand } from './saveCommand.js';
import { ExternalSignal, SignalMeta, type Signal, type Stimulus } from './signals.js';
import { storedConfig, storedMindState } from './storedState.js';

/** A recorded session, ready to re-run. */
export interface Recording {
  session: string;
  config: AgentConfig;
  firstSeq: number;
  /** The mind state the run starts from (`mind.toJSON()`). */
  base: unknown;
  /** Scheduler time the run starts at. */
  startAt: number;
  signals: readonly SignalRow[];
  /** How the recorded run stopped, when it did (a crashed one did not). */
  stop?: { at: number; reason: string };
}

const envelope = { depth: z.number().int().min(0), meta: SignalMeta, at: z.number().optional() };
/** Internal signals as the signal log records them. */
const InternalSignal = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tick'), ...envelope }).strict(),
  z.object({ type: z.literal('heartbeat'), beat: z.number().int(), ...envelope }).strict(),
  z.object({ type: z.literal('error'), message: z.string(), severity: z.enum(['transient', 'critical']), ...envelope }).strict(),
  z.object({ type: z.literal('feedback'), goalId: z.string().optional(), tool: z.string().optional(), reason: z.string(), ...envelope }).strict(),
]);
const RejectedRow = z.object({ source: z.string(), line: z.number().int().optional(), reason: z.string(), preview: z.string().optional() }).strict();

/** A signal-log row as what re-enters: a signal, or the stimulus that perceive rejected (it is rejected again). */
export function parseSignalRow(row: SignalRow): { signal: Signal } | { stimulus: Stimulus } {
  const where = `signal ${row.id} of session ${row.session}`;
  let value: unknown;
  try {
    value = JSON.parse(row.body);
  } catch (error) {
    throw new StoreError(`store: ${where} is not JSON: ${(error as Error).message}`, 'RECORDING');
  }
  if (row.type === 'rejected') {
    const parsed = RejectedRow.safeParse(value);
    if (!parsed.success) throw new StoreError(`store: ${where}: invalid rejected row: ${parsed.error.issues[0]!.message}`, 'RECORDING');
    const { source, line, reason, preview } = parsed.data;
    return { stimulus: { source, problem: reason, ...(line !== undefined ? { line } : {}), ...(preview !== undefined ? { text: preview } : {}) } };
  }
  const parsed = (['tick', 'heartbeat', 'error', 'feedback'].includes(row.type) ? InternalSignal : ExternalSignal).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StoreError(`store: ${where}: invalid ${row.type} signal: ${issue.path.join('.') || 'signal'}: ${issue.message}`, 'RECORDING');
  }
  return { signal: parsed.data as Signal };
}

/**
 * Re-runs a recording synchronously on a virtual clock starting at
 * `startAt`, handing each event to `onEvent` as it is made (nothing is kept).
 * Tools see `replaying` in their context: the world saw these actions once,
 * so the built-in ones that act on it (shell_exec, file_io writes,
 * http_fetch) fail instead of doing them again.
 * Returns the agent, whose mind holds the final state. `options` must carry
 * the same tools, watchers and commands as the recorded run.
 */
export function replayOn(
  recording: Recording,
  options: Omit<AgentOptions, 'config' | 'session' | 'scheduler' | 'firstSeq' | 'onEnter'>,
  onEvent: (event: AgentEvent) => void,
): Agent {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = recording.startAt;
  const agent = createAgent({ ...options, config: recording.config, session: recording.session, scheduler, firstSeq: recording.firstSeq, replaying: true });
  agent.mind.restore(recording.base);
  const rows = recording.signals.map(parseSignalRow);
  const stimuli$ = new Subject<Stimulus>();
  const signals$ = new Subject<Signal>();
  const events$ = agent.run({ inputs: [stimuli$], signals: [signals$], drive: false });
  events$.subscribe(onEvent);
  events$.connect();

  let next = 0;
  const end = (): void => {
    if (recording.stop) {
      const { at, reason } = recording.stop;
      scheduler.schedule(() => agent.stop(reason), Math.max(0, at - scheduler.now()));
    } else {
      stimuli$.complete();
      signals$.complete();
    }
  };
  const feed = (): void => {
    do {
      const row = rows[next]!;
      if ('signal' in row) signals$.next(row.signal);
      else stimuli$.next(row.stimulus);
      next++;
    } while (next < rows.length && recording.signals[next]!.at <= scheduler.now());
    if (next < rows.length) scheduler.schedule(feed, recording.signals[next]!.at - scheduler.now());
    else end();
  };
  if (rows.length > 0) scheduler.schedule(feed, Math.max(0, recording.signals[0]!.at - scheduler.now()));
  else end();
  scheduler.flush();
  return agent;
}

/** Where a replay first differs from the recording. */
export interface Divergence {
  seq: number;
  expected: string;
  got: string;
}

export type ReplayResult = { identical: true; session: string; events: number } | { identical: false; session: string; divergence: Divergence };

/**
 * Loads a session's recording (its first snapshot, its signals and how it
 * stopped) and its recorded events, as stored rows; `ended` when the session
 * is marked ended, so its recording is complete even if its last events are
 * missing.
 */
export async function loadRecording(store: SqliteStore, sessionId: string): Promise<{ recording: Recording; recorded: EventRow[]; ended: boolean }> {
  const session = await store.existingSession(sessionId);
  const base = await store.snapshot(sessionId, 'first');
  if (!base) throw new StoreError(`store: session ${sessionId} has no snapshot to start from`, 'NO_SNAPSHOT');
  const recorded = await store.events({ session: sessionId });
  const last = recorded.length > 0 ? eventFromRow(recorded.at(-1)!) : undefined;
  const first = recorded[0];
  const recording: Recording = {
    session: sessionId,
    config: storedConfig(store.file, session),
    firstSeq: session.first_seq,
    base: storedMindState(store.file, base),
    startAt: first?.kind === 'session' ? first.at : base.at,
    signals: await store.signals(sessionId),
  };
  if (last?.kind === 'session' && last.state === 'stopped') recording.stop = { at: last.at, reason: last.reason ?? 'stopped' };
  return { recording, recorded, ended: session.status === 'ended' };
}

/** An event as stored: header columns plus the JSON body. */
export function eventFromRow(row: EventRow): AgentEvent {
  return { kind: row.kind, seq: row.seq, session: row.session, cycle: row.cycle, at: row.at, ...(JSON.parse(row.body) as object) } as AgentEvent;
}

/**
 * Compares replayed events with recorded ones as they are replayed, so
 * neither side is kept as objects: the first place they differ, or nothing.
 * A recording cut short by a crash (`complete` false) is compared up to its
 * last stored event; replaying fewer events than were recorded is a
 * divergence either way.
 */
export class DivergenceCheck {
  private next = 0;
  private found: Divergence | undefined;

  constructor(
    private readonly recorded: readonly EventRow[],
    private readonly complete: boolean,
  ) {}

  /** Compares the next replayed event with the next recorded one. */
  push(replayed: AgentEvent): void {
    if (this.found) return;
    const row = this.recorded[this.next++];
    if (!row && !this.complete) return;
    const expected = row ? JSON.stringify(eventFromRow(row)) : NO_EVENT;
    const got = JSON.stringify(replayed);
    if (expected !== got) this.found = { seq: row?.seq ?? replayed.seq, expected, got };
  }

  /** The first divergence, once the replay has ended. */
  result(): Divergence | undefined {
    const missing = this.recorded[this.next];
    if (this.found || !missing) return this.found;
    return { seq: missing.seq, expected: JSON.stringify(eventFromRow(missing)), got: NO_EVENT };
  }
}

const NO_EVENT = '(no event)';

/** Replays a stored session (default: the latest) and compares its events with the recorded ones. */
export async function replaySession(
  store: SqliteStore,
  sessionId: string | undefined,
  options: Parameters<typeof replayOn>[1] = {},
): Promise<ReplayResult> {
  const id = sessionId ?? (await store.latestSession())?.id;
  if (id === undefined) throw new StoreError(`store: ${store.file} has no session to replay`, 'NO_SESSION');
  const { recording, recorded, ended } = await loadRecording(store, id);
  // An ended session's recording is complete: events replayed past its last stored one are missing from it.
  const check = new DivergenceCheck(recorded, recording.stop !== undefined || ended);
  replayOn(recording, { ...options, commands: [...(options.commands ?? []), saveCommand] }, (event) => check.push(event));
  const divergence = check.result();
  return divergence ? { identical: false, session: id, divergence } : { identical: true, session: id, events: recorded.length };
}
