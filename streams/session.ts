/**
 * A persistent session: what `ooda run --db FILE` and `ooda resume` wire
 * around the agent (seed 001's session persistence, seed 004's auto-save and
 * shutdown save).
 *
 * - Opening: with `fresh`, a new session starts from a fresh mind. Otherwise
 *   the latest session is continued: its last snapshot is restored and, when
 *   it did not end cleanly (a crash; opening the store marked it `crashed`),
 *   the signals it recorded after that snapshot are re-applied on virtual
 *   time (streams/sessionRestore.ts), so the state is what the store
 *   acknowledged. Its cycle count and the event `seq` continue.
 * - Recording: every signal as its pass begins (the replay log), every event,
 *   and a snapshot of the whole mind on the `save` command, every
 *   `autoSaveMs` on the heartbeat, and on exit (the session keeps its first
 *   and newest two: sinks/snapshotRetention.ts). A snapshot is taken as the
 *   `save` command or heartbeat enters, so it is the state after every earlier
 *   signal: `resume` re-applies exactly the signals recorded after it.
 * - Closing: final snapshot, the session's end, a last flush, then the file is
 *   closed.
 */
import { QueryTables } from '../sinks/queryTables.js';
import { pruneSnapshots } from '../sinks/snapshotRetention.js';
import { effectRow } from '../sinks/effectRows.js';
import { SqliteStore, type StoreOptions } from '../sinks/sqliteStore.js';
import { checkSqliteSinkOptions } from '../sinks/sqliteSinkOptions.js';
import { StoreError } from '../sinks/storeError.js';
import { toSqlite, type SqliteSink, type SqliteSinkOptions } from '../sinks/toSqlite.js';
import type { Observable } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import type { MindState } from '../mind/mind.js';
import { AgentConfig } from './config.js';
import type { Agent, AgentOptions, EnterHook, Entering } from './createAgent.js';
import type { AgentEvent } from './events.js';
import { saveCommand } from './saveCommand.js';
import type { Signal } from './signals.js';
import { restoreState, type RestoreContext } from './sessionRestore.js';
import { storedConfig } from './storedState.js';

export interface PersistenceOptions extends StoreOptions, Omit<SqliteSinkOptions, 'onError' | 'scheduler'> {
  /** The store file (`:memory:` allowed). */
  db: string;
  /** Start a new mind even when the store holds a session. */
  fresh: boolean;
}

export interface PersistenceContext extends RestoreContext {
  /** The new session's id. */
  session: string;
  config: AgentConfig;
  /**
   * The configuration a session that resumes another runs with, given the
   * resumed session's own (`maxCycles` then counts from the restored cycle).
   * Default: `config`, whatever the resumed session's was. The CLI layers its
   * config file, environment and flags over the resumed session's config.
   */
  resumeConfig?: (resumed: AgentConfig) => AgentConfig;
}

/** What a resumed session continued from. */
export interface Resumed {
  from: string;
  cycle: number;
  /** Signals re-applied after the last snapshot (a crashed session's tail). */
  reapplied: number;
  /** Whether the last snapshot was saved paused (before any signal was re-applied). */
  savedPaused: boolean;
}

export class Persistence {
  private agent: Agent | undefined;
  /** The session's query tables as this run last refreshed them (set with the agent). */
  private queryTables: QueryTables | undefined;
  private nextSignal: number;
  private nextSnapshot: number;
  private nextEffect: number;
  private lastSaveAt = 0;
  /** The sink's count of committed writes at which the session's row and first snapshot are in the store (set by attach). */
  private startCommittedAt: number | undefined;
  /** The sink's `committed` count at which the last auto-save's snapshot is in the store. */
  private autoSaveCommittedAt = 0;
  readonly sink: SqliteSink;

  private constructor(
    readonly store: SqliteStore,
    options: PersistenceOptions,
    /** The configuration to run with: on resume, `maxCycles` counts from the restored cycle. */
    readonly config: AgentConfig,
    readonly firstSeq: number,
    ids: { signal: number; snapshot: number; effect: number },
    private readonly restored: MindState | undefined,
    readonly resumed: Resumed | undefined,
  ) {
    this.nextSignal = ids.signal;
    this.nextSnapshot = ids.snapshot;
    this.nextEffect = ids.effect;
    this.sink = toSqlite(store, {
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
      ...(options.flushMs !== undefined ? { flushMs: options.flushMs } : {}),
      ...(options.maxQueued !== undefined ? { maxQueued: options.maxQueued } : {}),
      ...(options.maxQueuedBytes !== undefined ? { maxQueuedBytes: options.maxQueuedBytes } : {}),
      ...(options.log !== undefined ? { log: options.log } : {}),
      onError: (error) =>
        this.agent?.inject({ type: 'error', depth: 0, meta: { source: 'store' }, message: error.message, severity: 'transient' }),
    });
  }

  /**
   * Opens the store and decides where the session starts: fresh, or from the
   * latest session (restoring a crashed one's acknowledged state). Nothing is
   * written but what opening the store does (migrating it, marking crashed
   * sessions); an interrupted `context.startUp` closes the store and rejects.
   */
  static async open(options: PersistenceOptions, context: PersistenceContext): Promise<Persistence> {
    // The options, before the store is opened (and a crashed session re-applied) for nothing; the store checks its own.
    if (typeof options.db !== 'string') throw new TypeError(`Persistence.open db: expected the store's file (or ":memory:"), got ${describeValue(options.db)}`);
    if (typeof options.fresh !== 'boolean') throw new TypeError(`Persistence.open fresh: expected true or false, got ${describeValue(options.fresh)}`);
    checkSqliteSinkOptions(options);
    context.startUp?.step(`opening store ${options.db}`);
    const store = await SqliteStore.open(options.db, context.startUp ? { ...options, signal: context.startUp.signal } : options);
    try {
      if (await store.session(context.session)) {
        throw new StoreError(`store: ${options.db} already holds a session ${context.session}: pass another --session, or none for a new id`, 'SESSION_EXISTS');
      }
      const ids = await store.nextIds();
      const latest = options.fresh ? undefined : await store.latestSession();
      const restored = latest && { from: latest, ...(await restoreState(store, latest, context)) };
      // The last step: the caller starts the run in the task this resolves in, so no signal is handled in between.
      context.startUp?.check();
      if (!restored) return new Persistence(store, options, context.config, ids.seq, ids, undefined, undefined);
      const { from, state, reapplied, savedPaused } = restored;
      const cycle = state.cycle;
      const base = context.resumeConfig ? context.resumeConfig(storedConfig(store.file, from)) : context.config;
      // maxCycles counts this run's cycles; the mind's limit is past the cycle it continues from, at most the largest the config holds ("at most N more" still holds).
      const config = { ...base, maxCycles: Math.min(cycle + base.maxCycles, Number.MAX_SAFE_INTEGER) };
      return new Persistence(store, options, config, ids.seq, ids, state, { from: from.id, cycle, reapplied, savedPaused });
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The agent's options with the session's added: the first seq, the `save`
   * command and the recorders of signals and tools' effects. `base`'s
   * `commands` come before `save`; its `onEnter` hook (or hooks) is called
   * first and the recorder last, so what a hook of yours marks is what is
   * recorded, and a hook that throws is reported on its pass
   * (`onEnter[0] failed: …`) while the signal is still recorded. Throws a
   * TypeError for what cannot be combined with the store's own: an
   * `effects` log (the store records the effects; a second recorder that
   * threw would fail an effect the store had recorded as settled, and a
   * recording to answer from is a replay's, not a run's) or a `firstSeq`
   * other than the store's next (its events would collide with, or leave a
   * gap after, those it holds).
   */
  agentOptions<O extends AgentOptions>(base?: O): Omit<O, 'firstSeq' | 'commands' | 'onEnter' | 'effects'> & Required<Pick<AgentOptions, 'firstSeq' | 'commands' | 'onEnter' | 'effects'>> {
    if (base?.effects !== undefined) {
      throw new TypeError(
        `Persistence.agentOptions effects: the store records the tools' effects itself (its effects table), so it takes no effects log of yours (got ${describeValue(base.effects)}): read them from the store, or run createAgent without Persistence`,
      );
    }
    if (base?.firstSeq !== undefined && base.firstSeq !== this.firstSeq) {
      throw new TypeError(`Persistence.agentOptions firstSeq: the store numbers this session's events from its next free seq, ${this.firstSeq} (got ${describeValue(base.firstSeq)}): leave firstSeq out`);
    }
    const hooks = base?.onEnter === undefined ? [] : Array.isArray(base.onEnter) ? [...(base.onEnter as readonly EnterHook[])] : [base.onEnter as EnterHook];
    return {
      ...(base as O),
      firstSeq: this.firstSeq,
      commands: [...(base?.commands ?? []), saveCommand],
      onEnter: [...hooks, (entering: Entering) => this.onEnter(entering)],
      effects: { record: (effect) => this.sink.insert('effects', effectRow(this.nextEffect++, this.bound().session, effect)) },
    };
  }

  /** Backpressure for the agent (`AgentSources.hold`). */
  get hold$(): Observable<boolean> {
    return this.sink.saturated$;
  }

  /**
   * Binds the agent before its run is connected: restores the mind when
   * resuming, records the session row and the state it starts from, and
   * subscribes the sink to the events. A restore that fails (a mind
   * extension that cannot load its saved state) throws, naming it, and
   * binds nothing.
   */
  attach(agent: Agent, events$: Observable<AgentEvent>): void {
    // A mind that cannot take the stored state (an extension that cannot load its part) throws here, before the session is bound: nothing of it is written, and close() then only closes the store.
    if (this.restored !== undefined) agent.mind.restore(this.restored);
    this.agent = agent;
    this.queryTables = new QueryTables(agent.session);
    const now = agent.runtime.now();
    this.sink.insert('sessions', {
      id: agent.session,
      started_at: now,
      status: 'running',
      resumed_from: this.resumed?.from ?? null,
      first_seq: this.firstSeq,
      start_cycle: agent.mind.cycle,
      config: this.config,
    });
    this.snapshot(this.resumed ? 'resumed' : 'start');
    this.startCommittedAt = this.sink.committed + this.sink.pending;
    events$.subscribe(this.sink);
  }

  /**
   * Whether the store holds this session: its row and the snapshot it starts
   * from are committed, so `ooda resume` can continue it. False until the
   * first write that carries them commits (up to `flushMs` after attach, longer
   * when the store is slow or locked); nothing of the session is stored before.
   */
  get sessionStored(): boolean {
    return this.startCommittedAt !== undefined && this.sink.committed >= this.startCommittedAt;
  }

  /**
   * After the run: final snapshot, the session's end, a last flush; then closes
   * the store. When the exit snapshot cannot be taken (a mind extension whose
   * state does not serialise), the rest is still written and the store closed,
   * then `close` rejects saying so (a resume starts from the previous snapshot
   * and re-applies the signals recorded after it).
   */
  async close(reason: string): Promise<void> {
    let snapshotFailure: { error: unknown } | undefined;
    try {
      const agent = this.agent;
      if (agent) {
        try {
          this.snapshot('exit');
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          snapshotFailure = { error: new Error(`session ${agent.session}: the exit snapshot could not be taken (${why}); the session's signals and events are stored`, { cause: error }) };
        }
        this.sink.run("UPDATE sessions SET status = 'ended', ended_at = ?, reason = ?, cycles = ? WHERE id = ?", [
          agent.runtime.now(),
          reason,
          agent.mind.cycle,
          agent.session,
        ]);
      }
      await this.sink.flushed();
    } finally {
      await this.store.close();
    }
    if (snapshotFailure) throw snapshotFailure.error;
  }

  /** The agent attach bound; throws when there is none yet. */
  private bound(): Agent {
    if (!this.agent) throw new Error('the session records nothing: Persistence.attach has not bound the agent (it was not called, or it failed)');
    return this.agent;
  }

  private onEnter(entering: Entering): Entering | undefined {
    const agent = this.bound();
    // The mark of the signal taken in past max cycles is kept, for a replay to warn at the same pass (see Entering).
    const pastMaxCycles = entering.pastMaxCycles ? { pastMaxCycles: true as const } : {};
    if ('rejected' in entering) {
      // Replay perceives the line again, fed at the time its pass began (the rejection's time).
      const { at, source, line, reason, preview } = entering.rejected;
      this.recordSignal(at, 'rejected', { source, line, reason, preview, ...pastMaxCycles });
      return;
    }
    const now = agent.runtime.now();
    const signal = entering.signal;
    let snapshotFailed: string | undefined;
    if (signal.type === 'command' && signal.command === 'save') snapshotFailed = this.trySnapshot('save command');
    else if (signal.type === 'heartbeat' && this.config.autoSaveMs > 0 && now - this.lastSaveAt >= this.config.autoSaveMs && this.lastAutoSaveWritten()) {
      snapshotFailed = this.trySnapshot('auto-save');
      if (snapshotFailed === undefined) this.autoSaveCommittedAt = this.sink.committed + this.sink.pending;
    }
    const marked: Signal =
      snapshotFailed === undefined && !entering.pastMaxCycles ? signal : { ...signal, meta: { ...signal.meta, ...pastMaxCycles, ...(snapshotFailed === undefined ? {} : { snapshotFailed }) } };
    this.recordSignal(now, signal.type, marked);
    // The pass takes the mark too: it reports the failure as the replay of this signal will.
    return snapshotFailed === undefined ? undefined : { ...entering, signal: marked };
  }

  /**
   * Takes a snapshot for `reason`; when the mind's state cannot be saved (a
   * mind extension whose state does not serialise), says why instead. The
   * next attempt is `autoSaveMs` later (or the next `save` command), and it
   * rewrites every query table, since this one refreshed none.
   */
  private trySnapshot(reason: string): string | undefined {
    try {
      this.snapshot(reason);
      return undefined;
    } catch (error) {
      this.lastSaveAt = this.agent!.runtime.now();
      this.queryTables = new QueryTables(this.agent!.session);
      const why = error instanceof Error ? error.message : String(error);
      return `session ${this.agent!.session}: the ${reason}'s snapshot could not be taken (${why}); nothing was saved, and a resume starts from the previous snapshot and re-applies the signals recorded after it`;
    }
  }

  /**
   * Whether the last auto-save's snapshot is in the store. While it is not
   * (the store is failing, e.g. a full disk, or falling behind), auto-save
   * waits for a later heartbeat: each snapshot is the whole mind, so queuing
   * one per `autoSaveMs` behind it grew memory by a mind each time, with no
   * row count reaching the queue's bound.
   */
  private lastAutoSaveWritten(): boolean {
    return this.sink.committed >= this.autoSaveCommittedAt;
  }

  private recordSignal(at: number, type: string, body: unknown): void {
    this.sink.insert('signals', { id: this.nextSignal++, session: this.agent!.session, at, type, body });
  }

  /**
   * Queues a snapshot of the whole mind, as of after the last recorded signal,
   * with, in the same transaction, the refresh of the query tables and the
   * deletion of the session's snapshots no longer kept (snapshotRetention.ts).
   */
  private snapshot(reason: string): void {
    const agent = this.agent!;
    const state = agent.mind.toJSON();
    const id = this.nextSnapshot;
    const now = agent.runtime.now();
    const row = { id, session: agent.session, at: now, cycle: state.cycle, signal_id: this.nextSignal - 1, reason, state };
    this.sink.insert('snapshots', row, [...this.queryTables!.refresh(id, state), pruneSnapshots(agent.session)]);
    this.nextSnapshot++;
    this.lastSaveAt = now;
  }
}
