/**
 * toSqlite: the store's sink. Subscribe it to the event stream; it also takes
 * other rows (signals, snapshots, sessions) through `insert` and statements
 * through `run`, so everything lands in one ordered queue and is committed in
 * the same transactions.
 *
 * Each event is serialised to JSON once, as it arrives (the text the other
 * sinks share: sinks/eventJson.ts); rows are queued and written in one
 * transaction per flush (see {@link SqliteStore.write}): a flush starts when
 * `batchSize` rows are queued or `flushMs` after the first queued row,
 * whichever comes first; one transaction is in flight at a time.
 * An `action` event also becomes a `provenance` row, joined with the decision
 * that chose its tool.
 *
 * Backpressure: the queue is bounded by `maxQueued` rows and by
 * `maxQueuedBytes` of their JSON (a whole-mind snapshot is one row, but
 * megabytes: `save` commands sent faster than they were written grew memory
 * past a gigabyte with few rows queued). When either is reached,
 * `saturated$` emits true; the agent holds its driver (no new cycles) and the
 * program pauses stdin until the queue has drained below half of both, when
 * it emits false. Memory is therefore bounded by the bounds plus what one
 * burst of cycles or one input chunk adds, never by the run's length.
 *
 * A write error is never a silent drop: the rows stay queued and are retried
 * every `flushMs`; the error is written to stderr and passed to `onError` (the
 * program injects it into the agent as an `error` event) once per distinct
 * failure. `flushed()` rejects with it when the rows still cannot be written.
 *
 *   events:       --a-b-c----------d--|
 *   toSqlite():   -------[abc]-----[d]|    (one transaction per flush; the last on completion)
 *
 * Options: batchSize (500), flushMs (50), maxQueued (50 000), maxQueuedBytes (64 MiB), scheduler
 * (asyncScheduler, for the flush timer), onError, log (stderr); a bad one throws, naming it.
 */
import { asyncScheduler, Subject, type Observable, type Observer, type Subscription } from 'rxjs';
import type { AgentEvent, EventOf } from '../streams/events.js';
import { eventJson } from './eventJson.js';
import { StoreError, translate } from './storeError.js';
import type { SqliteStore } from './sqliteStore.js';
import type { InsertRows, InsertTable, SqlStatement } from './writeBatch.js';
import { streamFailure } from './streamFailure.js';
import { checkSqliteSinkOptions, type SqliteSinkOptions } from './sqliteSinkOptions.js';

/** The default bound of the queue's JSON, in bytes (UTF-16 units, about bytes). */
export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;

export type { SqliteSinkOptions } from './sqliteSinkOptions.js';

export interface SqliteSink extends Observer<AgentEvent> {
  /**
   * Queues a row (signals, snapshots, sessions) behind what is already queued;
   * it is serialised at once. `statements` are committed in the same
   * transaction, after its rows (a snapshot's query-table refresh and pruning).
   */
  insert<T extends InsertTable>(table: T, row: InsertRows[T], statements?: readonly SqlStatement[]): void;
  /** Queues a statement, run after the rows of the transaction it lands in. */
  run(sql: string, params: unknown[]): void;
  /** Rows queued or being written (a queued statement counts as one). */
  readonly pending: number;
  /**
   * Rows (and statements) committed since the sink was made. Writes commit in
   * the order they were queued, so a row is in the store once `committed`
   * reaches `committed + pending` as read just after it was queued.
   */
  readonly committed: number;
  /** Emits true when the queue fills up (see the module doc) and false once it has drained below half. */
  readonly saturated$: Observable<boolean>;
  /** Writes everything queued so far; if that fails, stops retrying and rejects with the store's error. */
  flushed(): Promise<void>;
}

export function toSqlite(store: SqliteStore, options: SqliteSinkOptions = {}): SqliteSink {
  checkSqliteSinkOptions(options);
  const batchSize = options.batchSize ?? 500;
  const flushMs = options.flushMs ?? 50;
  const maxQueued = options.maxQueued ?? 50_000;
  const maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  const scheduler = options.scheduler ?? asyncScheduler;
  const log = options.log ?? ((line: string) => process.stderr.write(`ooda: ${line}\n`));
  const saturated$ = new Subject<boolean>();
  let saturated = false;
  const decisions = new Map<string, EventOf<'decision'>>();
  let queue = store.batch();
  let inFlight = 0;
  let inFlightChars = 0;
  let committed = 0;
  let writing: Promise<void> | undefined;
  let timer: Subscription | undefined;
  let failure: StoreError | undefined;

  const pending = (): number => queue.size + inFlight;
  const updateSaturation = (): void => {
    const n = pending();
    const chars = queue.chars + inFlightChars;
    const full = saturated ? n >= maxQueued / 2 || chars >= maxQueuedBytes / 2 : n >= maxQueued || chars >= maxQueuedBytes;
    if (full === saturated) return;
    saturated = full;
    saturated$.next(full);
  };
  const scheduleFlush = (): void => {
    if (!timer && !writing && queue.size > 0) timer = scheduler.schedule(flush, flushMs);
  };
  /** After rows were queued: flush a full batch at once, else make sure the timer runs. */
  const queued = (): void => {
    if (queue.size >= batchSize) flush();
    else scheduleFlush();
    updateSaturation();
  };

  function flush(): void {
    timer?.unsubscribe();
    timer = undefined;
    if (writing || queue.size === 0) return;
    const batch = queue;
    queue = store.batch();
    inFlight = batch.size;
    inFlightChars = batch.chars;
    writing = store.write(batch).then(
      () => {
        committed += batch.size;
        inFlight = 0;
        inFlightChars = 0;
        writing = undefined;
        if (failure) log(`store: writing works again; ${batch.size} delayed row(s) written`);
        failure = undefined;
        updateSaturation();
        if (queue.size >= batchSize) flush();
        else scheduleFlush();
      },
      (error: Error) => {
        const storeError = translate(error, store.file, 'write');
        batch.append(queue);
        queue = batch;
        inFlight = 0;
        inFlightChars = 0;
        writing = undefined;
        if (failure?.message !== storeError.message) {
          log(`${storeError.message} (${queue.size} row(s) kept in memory; retrying every ${flushMs} ms)`);
          options.onError?.(storeError);
        }
        failure = storeError;
        updateSaturation();
        scheduleFlush();
      },
    );
  }

  const onEvent = (event: AgentEvent): void => {
    queue.insert('events', event, eventJson(event));
    if (event.kind === 'decision') decisions.set(event.goalId, event);
    else if (event.kind === 'action') {
      const decision = decisions.get(event.goalId);
      decisions.delete(event.goalId);
      const chose = decision && decision.tool === event.tool ? decision : undefined;
      queue.insert('provenance', {
        seq: event.seq,
        session: event.session,
        cycle: event.cycle,
        at: event.at,
        goal_id: event.goalId,
        tool: event.tool,
        score: chose?.score ?? null,
        breakdown: chose?.breakdown ?? null,
        status: event.status,
        progress: event.progress,
      });
    }
    queued();
  };

  return {
    next: onEvent,
    error(error) {
      log(streamFailure(error));
      flush();
    },
    complete: flush,
    insert(table, row, statements = []) {
      queue.insert(table, row);
      for (const statement of statements) queue.run(statement);
      queued();
    },
    run(sql, params) {
      queue.run({ sql, params });
      queued();
    },
    get pending() {
      return pending();
    },
    get committed() {
      return committed;
    },
    saturated$: saturated$.asObservable(),
    async flushed() {
      for (;;) {
        if (writing) {
          await writing;
          continue;
        }
        if (queue.size === 0) return;
        flush();
        await writing;
        if (failure) {
          timer?.unsubscribe();
          timer = undefined;
          throw failure;
        }
      }
    },
  };
}
