/**
 * Replay: re-runs a recorded session — the mind state it started from, then
 * every signal it recorded, each fed at its recorded scheduler time on a
 * virtual clock, with the driver off (`drive: false`: the recorded ticks drive
 * the cycles) — and compares the events with the recorded ones, then the
 * mind it reached where the run saved one with those snapshots
 * (streams/snapshotCheck.ts). Cycles are
 * deterministic (time and randomness are injected, and tools' I/O is given
 * back from the recorded effects), so a session replays identically unless
 * the recording was altered.
 *
 * Signals and recorded events are read a page at a time while the session is
 * re-run, so memory does not grow with the session's length: the virtual
 * clock is held while the next page of signals is read, and replayed events
 * wait to be compared until the recorded page they match has been read.
 *
 * The same re-run restores a crashed session on `resume`: the last snapshot
 * plus the signals recorded after it.
 */
import { Subject } from 'rxjs';
import { z } from 'zod';
import { recordedEffects } from '../sinks/effectRows.js';
import type { SqliteStore } from '../sinks/sqliteStore.js';
import type { SignalRow } from '../sinks/storeSchema.js';
import { StoreError } from '../sinks/storeError.js';
import type { Mind } from '../mind/mind.js';
import type { AgentConfig } from './config.js';
import { createAgent, type Agent, type AgentOptions } from './createAgent.js';
import { HoldableClock } from './holdableClock.js';
import { INTERNAL_BODY_FIELDS } from './internalSignalShapes.js';
import type { EffectKey, RecordedEffect } from './effects.js';
import type { AgentEvent } from './events.js';
import { saveCommand } from './saveCommand.js';
import { ExternalSignal, SignalMeta, type Signal, type Stimulus } from './signals.js';
import { DivergenceCheck, NO_EVENT, unknownTools, type Divergence } from './divergenceCheck.js';
import { SnapshotCheck, type StateDivergence } from './snapshotCheck.js';
import { eventFromRow, storedConfig, storedMindState } from './storedState.js';

/** A recorded session, ready to re-run. */
export interface Recording {
  session: string;
  config: AgentConfig;
  firstSeq: number;
  /** The mind state the run starts from (`mind.toJSON()`). */
  base: unknown;
  /** Scheduler time the run starts at. */
  startAt: number;
  /** The signals to feed, in the order they entered, a page at a time (e.g. {@link SqliteStore.signalPages}). */
  signals: AsyncIterable<readonly SignalRow[]>;
  /** How the recorded run stopped, when it did (a crashed one did not). */
  stop?: { at: number; reason: string };
  /** The tools' effects it recorded, by key (e.g. from the store's `effects` table); without it, effects run again as `ToolContext.effect` says. */
  effects?: ((key: EffectKey) => Promise<RecordedEffect | undefined>) | undefined;
}

const envelope = { depth: z.number().int().min(0), meta: SignalMeta, at: z.number().optional() };
/** Internal signals as the signal log records them. */
const InternalSignal = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tick'), ...INTERNAL_BODY_FIELDS.tick, ...envelope }).strict(),
  z.object({ type: z.literal('heartbeat'), ...INTERNAL_BODY_FIELDS.heartbeat, ...envelope }).strict(),
  z.object({ type: z.literal('error'), ...INTERNAL_BODY_FIELDS.error, ...envelope }).strict(),
  z.object({ type: z.literal('feedback'), ...INTERNAL_BODY_FIELDS.feedback, ...envelope }).strict(),
]);
const RejectedRow = z
  .object({ source: z.string(), line: z.number().int().optional(), reason: z.string(), preview: z.string().optional(), pastMaxCycles: z.literal(true).optional() })
  .strict();

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
    const { source, line, reason, preview, pastMaxCycles } = parsed.data;
    return {
      stimulus: { source, problem: reason, ...(line !== undefined ? { line } : {}), ...(preview !== undefined ? { text: preview } : {}), ...(pastMaxCycles ? { pastMaxCycles } : {}) },
    };
  }
  const parsed = (['tick', 'heartbeat', 'error', 'feedback'].includes(row.type) ? InternalSignal : ExternalSignal).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StoreError(`store: ${where}: invalid ${row.type} signal: ${issue.path.join('.') || 'signal'}: ${issue.message}`, 'RECORDING');
  }
  return { signal: parsed.data as Signal };
}

/**
 * Re-runs a recording on a virtual clock starting at `startAt`, handing each
 * event to `onEvent` as it is made (nothing is kept), calling `onPage`
 * whenever the clock is held for the next page of signals, and `onEnter`
 * with the mind as each signal enters its pass (before the pass changes
 * it). Tools see
 * `replaying` in their context: the world saw these actions once, so their
 * effects (`ctx.effect`) settle as `recording.effects` says, in the order
 * they came, instead of being done again (with none recorded, only a
 * repeatable one runs again). Pending promises settle before each step of
 * the clock (see HoldableClock), so an async tool settles at the virtual time
 * it did when recorded. Resolves with the agent, whose mind holds the
 * final state. `options` must carry the same tools, watchers and commands as
 * the recorded run.
 */
export async function replayOn(
  recording: Recording,
  options: Omit<AgentOptions, 'config' | 'session' | 'scheduler' | 'firstSeq' | 'onEnter'>,
  onEvent: (event: AgentEvent) => void,
  onPage: () => Promise<void> = async () => undefined,
  onEnter: (mind: Mind) => void = () => undefined,
): Promise<Agent> {
  const scheduler = new HoldableClock();
  scheduler.frame = recording.startAt;
  const { effects } = recording;
  const agent = createAgent({
    ...options,
    config: recording.config,
    session: recording.session,
    scheduler,
    firstSeq: recording.firstSeq,
    replaying: true,
    onEnter: () => onEnter(agent.mind),
    // The clock waits while a recorded effect is read: it settles at the next step, before the run's timers.
    ...(effects ? { effects: { recorded: (key: EffectKey) => scheduler.wait(effects(key)) } } : {}),
  });
  agent.mind.restore(recording.base);
  const stimuli$ = new Subject<Stimulus>();
  const signals$ = new Subject<Signal>();
  const events$ = agent.run({ inputs: [stimuli$], signals: [signals$], drive: false });
  events$.subscribe(onEvent);
  events$.connect();

  const pages = recording.signals[Symbol.asyncIterator]();
  const readPage = async (): Promise<{ at: number; parsed: ReturnType<typeof parseSignalRow> }[] | undefined> => {
    const page = await pages.next();
    return page.done ? undefined : page.value.map((row) => ({ at: row.at, parsed: parseSignalRow(row) }));
  };
  let rows = (await readPage()) ?? [];
  let next = 0;
  let more = rows.length > 0;
  /** Whether the feed waits for the next page (the clock is held: the feed goes on before anything else runs). */
  let waiting = false;

  /**
   * The recorded signals all fed, and the recorded stop (if any) made: the
   * feed ends. Signals recorded after the stop's time are fed all the same:
   * they were queued behind a pass when the run stopped, and it drained them.
   */
  let stopMade = !recording.stop;
  let fedAll = false;
  const endFeed = (): void => {
    if (!stopMade || !fedAll) return;
    stimuli$.complete();
    signals$.complete();
  };
  const end = (): void => {
    fedAll = true;
    endFeed();
  };
  if (recording.stop) {
    const { at, reason } = recording.stop;
    // What else is due at the stop's time (a recorded effect settling, a signal fed) came before it in the run (an effect after it would have been abandoned): it runs first.
    const stopWhenLast = (): void => {
      if (scheduler.actions.some((action) => action.delay <= scheduler.now())) return void scheduler.schedule(stopWhenLast);
      agent.stop(reason);
      stopMade = true;
      endFeed();
    };
    scheduler.schedule(stopWhenLast, Math.max(0, at - scheduler.now()));
  }
  /** Feeds the next row (`due`) and every following one whose time has come, then schedules itself at the next row's time. */
  const feed = (due: boolean): void => {
    for (;;) {
      if (next === rows.length && more) {
        waiting = true;
        scheduler.hold();
        return;
      }
      const row = rows[next];
      if (!row) return end();
      if (!due && row.at > scheduler.now()) {
        scheduler.schedule(() => feed(true), row.at - scheduler.now());
        return;
      }
      next++;
      due = false;
      if ('signal' in row.parsed) signals$.next(row.parsed.signal);
      else stimuli$.next(row.parsed.stimulus);
    }
  };
  if (rows.length > 0) scheduler.schedule(() => feed(true), Math.max(0, rows[0]!.at - scheduler.now()));
  else end();
  await scheduler.run();
  while (waiting) {
    waiting = false;
    await onPage();
    const page = await readPage();
    rows = page ?? [];
    next = 0;
    more = page !== undefined;
    // Only a feed that has fed a row waits: the next row is due only if its time has come.
    feed(false);
    if (!waiting) await scheduler.run();
  }
  return agent;
}

/** How a replay went: identical, or the first event that differs, or (the events all the same) the first snapshot the mind differs from. */
export type ReplayResult =
  | { identical: true; session: string; events: number }
  | { identical: false; session: string; divergence: Divergence }
  | { identical: false; session: string; events: number; stateDivergence: StateDivergence };

/**
 * Loads a session's recording (its first snapshot, its signals as pages read
 * from the store, and how it stopped); `ended` when the session is marked
 * ended, so its recording is complete even if its last events are missing.
 */
export async function loadRecording(store: SqliteStore, sessionId: string): Promise<{ recording: Recording; ended: boolean; baseId: number }> {
  const session = await store.existingSession(sessionId);
  const base = await store.snapshot(sessionId, 'first');
  if (!base) throw new StoreError(`store: session ${sessionId} has no snapshot to start from`, 'NO_SNAPSHOT');
  // A session's first snapshot is always kept (see snapshotRetention.ts): one that is no start was deleted by hand.
  if (base.reason !== 'start' && base.reason !== 'resumed') {
    throw new StoreError(
      `store: ${store.file}: session ${sessionId} has lost the snapshot it started from (the first it keeps, snapshot ${base.id}, is its ${base.reason} at cycle ${base.cycle}): it cannot be replayed`,
      'NO_SNAPSHOT',
    );
  }
  const [first] = await store.events({ session: sessionId, limit: 1 });
  const lastSeq = await store.nthNewestSeq({ session: sessionId }, 1);
  const [lastRow] = lastSeq === undefined ? [] : await store.events({ session: sessionId, afterSeq: lastSeq - 1, limit: 1 });
  const last = lastRow ? eventFromRow(lastRow) : undefined;
  const recording: Recording = {
    session: sessionId,
    config: storedConfig(store.file, session),
    firstSeq: session.first_seq,
    base: storedMindState(store.file, base),
    startAt: first?.kind === 'session' ? first.at : base.at,
    signals: store.signalPages(sessionId),
    effects: recordedEffects(store, sessionId),
  };
  if (last?.kind === 'session' && last.state === 'stopped') recording.stop = { at: last.at, reason: last.reason ?? 'stopped' };
  return { recording, ended: session.status === 'ended', baseId: base.id };
}

/**
 * Replays a stored session (default: the latest) and compares its events with
 * the recorded ones, then its mind with the snapshots the run saved after
 * the one it starts from (streams/snapshotCheck.ts). `options` must carry the recorded run's own tools,
 * watchers and commands: a divergence at an event naming a tool the replay
 * lacks lists it in `unknownTools`. It reads in one read transaction: a session still being
 * written is replayed as far as it was stored when the replay began, like a
 * crashed one, with its signals and events of that same moment.
 */
export function replaySession(
  store: SqliteStore,
  sessionId: string | undefined,
  options: Parameters<typeof replayOn>[1] = {},
): Promise<ReplayResult> {
  return store.readTransaction(async () => {
    // The latest with a snapshot, else (none has) the newest, whose loading says it has none.
    const id = sessionId ?? (await store.latestSession())?.id ?? (await store.sessions()).at(-1)?.id;
    if (id === undefined) throw new StoreError(`store: ${store.file} has no session to replay`, 'NO_SESSION');
    const { recording, ended, baseId } = await loadRecording(store, id);
    // An ended session's recording is complete: events replayed past its last stored one are missing from it.
    const check = new DivergenceCheck(store.eventPages({ session: id }), recording.stop !== undefined || ended);
    const snapshots = await SnapshotCheck.of(store, id, baseId);
    const commands = [...(options.commands ?? []), saveCommand];
    const agent = await replayOn(recording, { ...options, commands }, (event) => check.push(event), () => Promise.all([check.settle(), snapshots.settle()]).then(() => undefined), (mind) => snapshots.entering(mind));
    snapshots.ended(agent.mind);
    const divergence = await check.result();
    if (!divergence) {
      const stateDivergence = await snapshots.result();
      return stateDivergence ? { identical: false, session: id, events: check.compared, stateDivergence } : { identical: true, session: id, events: check.compared };
    }
    const unknown = divergence.expected === NO_EVENT ? [] : unknownTools(divergence.expected, (tool) => agent.mind.tools.has(tool));
    return { identical: false, session: id, divergence: unknown.length > 0 ? { ...divergence, unknownTools: unknown } : divergence };
  });
}
