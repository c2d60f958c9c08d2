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
 * Backpressure: the rows waiting behind the transaction being written are
 * bounded by `maxQueued`, so the store trails the agent by about one flush
 * window at most, and a crash loses no more (with a bound of 50 000 rows,
 * a kill -9 of a run fed faster than it was stored lost 17 000 facts); the
 * transaction in flight does not count, so the agent goes on working while
 * it is written. The JSON of all the rows held, in flight or waiting, is
 * bounded by `maxQueuedBytes` (a whole-mind snapshot is one row, but
 * megabytes: `save` commands sent faster than they were written grew memory
 * past a gigabyte with few rows queued). When either is reached,
 * `saturated$` emits true; the agent holds its driver (no new cycles) and the
 * program pauses stdin until both have drained below half, when it emits
 * false. Memory is therefore bounded by the bounds plus what one burst of
 * cycles or one input chunk adds, never by the run's length.
 *
 * A row the store could never write is refused, not retried: as it is
 * queued when that is cheap to see (a NaN or infinite number in a column, a
 * value with no JSON form, nesting too deep for SQLite's JSON functions:
 * sinks/rowCheck.ts; `insert` and `run` throw, naming the table, the row's
 * key and the column; an event is reported as below), else as its batch is
 * written (a key already stored, an SQL error in a statement), when it alone
 * is left out and the rest of its batch written (sinks/rowIsolation.ts).
 * Each is written to stderr, naming it and why, with how many have been
 * refused for that reason so far; `onError` hears of each reason once, at the
 * first row refused for it, so that a report the caller turns into an event
 * (as Persistence does) cannot be refused and reported again for ever.
 *
 * A write error of the store (busy, full, read-only, I/O, or a refused write
 * that undid the whole transaction: sinks/rowIsolation.ts) is never a silent
 * drop: the rows stay queued and are retried; the error is written to stderr
 * and passed to `onError` (the program injects it into the agent as an
 * `error` event) once per distinct failure.
 * `flushed()` rejects with it when the rows still cannot be written. A retry
 * writes the whole backlog, as long as a write of it takes, so retries back
 * off: the first comes a flush window (`flushMs`) after the failure, and each
 * further one waits twice as many windows as the last, up to
 * {@link MAX_RETRY_MS} (or one window, when `flushMs` is longer). On a full
 * disk the free space is looked at every window meanwhile (a statfs, not a
 * write), and the backlog is retried in the first window that finds room for
 * it (its size, up to {@link ROOM_TO_RETRY}) beyond what the failed write left.
 *
 *   events:       --a-b-c----------d--|
 *   toSqlite():   -------[abc]-----[d]|    (one transaction per flush; the last on completion)
 *
 * Options: batchSize (500), flushMs (50), maxQueued (2 000), maxQueuedBytes (64 MiB), scheduler
 * (asyncScheduler, for the flush timer), onError, log (stderr); a bad one throws, naming it.
 */
import { asyncScheduler, Subject, type Observable, type Observer, type Subscription } from 'rxjs';
import type { AgentEvent, EventOf } from '../streams/events.js';
import { eventJson } from './eventJson.js';
import { checkStatement, type RowRefusal } from './rowCheck.js';
import { StoreError, translate } from './storeError.js';
import type { SqliteStore } from './sqliteStore.js';
import type { InsertRows, InsertTable, SqlStatement } from './storeRows.js';
import { streamFailure } from './streamFailure.js';
import { checkSqliteSinkOptions, type SqliteSinkOptions } from './sqliteSinkOptions.js';

/** The longest a failing write waits between retries, in ms (the backoff doubles up to it). */
export const MAX_RETRY_MS = 1000;

/** Bytes the disk must gain after a full-disk failure for the backlog to be retried before its backoff ends: the backlog's own size, up to this. */
export const ROOM_TO_RETRY = 1024 * 1024;

/** The default bound of the rows waiting behind the transaction being written: about what one flush window writes. */
const DEFAULT_MAX_QUEUED = 2_000;

/** The default bound of the queue's JSON, in bytes (UTF-16 units, about bytes). */
export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;

export type { SqliteSinkOptions } from './sqliteSinkOptions.js';

export interface SqliteSink extends Observer<AgentEvent> {
  /**
   * Queues a row (signals, snapshots, sessions) behind what is already queued;
   * it is serialised at once. `statements` are committed in the same
   * transaction, after its rows (a snapshot's query-table refresh and pruning).
   * A row the store could never write as it is (see the module doc), or a bad
   * statement, throws, naming it; nothing of it is queued.
   */
  insert<T extends InsertTable>(table: T, row: InsertRows[T], statements?: readonly SqlStatement[]): void;
  /** Queues a statement, run after the rows of the transaction it lands in; one that is no SQL text with an array of parameters, or that would begin or end a transaction (OR ROLLBACK included), throws. */
  run(sql: string, params: unknown[]): void;
  /** Rows queued or being written (a queued statement counts as one). */
  readonly pending: number;
  /**
   * Rows (and statements) committed since the sink was made. Writes commit in
   * the order they were queued, so a row is in the store once `committed`
   * reaches `committed + pending` as read just after it was queued (unless
   * it was reported refused: those are counted as they are let go).
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
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
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
  /** While writes fail: the flush windows the next retry waits, those waited so far, and the disk's free bytes after a full-disk failure. */
  let retry: { windows: number; waited: number; freeBytes: number | undefined } | undefined;
  // Rounded down, so retries never come further apart than MAX_RETRY_MS, or than one window when that is longer (what the log says).
  const maxRetryWindows = Math.max(1, Math.floor(MAX_RETRY_MS / Math.max(flushMs, 1)));
  const maxRetryS = Math.max(MAX_RETRY_MS, flushMs) / 1000;

  /** Rows and statements let go so far, by reason (see {@link refused}). */
  const refusals = new Map<string, number>();
  /**
   * A row or statement let go for good: said on stderr, with how many have
   * been let go for its reason, and passed to onError only the first time:
   * Persistence makes each report an event, which a store that refuses every
   * event (a clock that gives NaN) refused in turn, reported, and so on.
   */
  const refused = (error: StoreError): void => {
    const reason = `${error.code}: ${error.detail ?? error.message}`;
    const count = (refusals.get(reason) ?? 0) + 1;
    refusals.set(reason, count);
    if (count > 1) return log(`${error.message} (${count} refused for this reason so far)`);
    log(error.message);
    options.onError?.(error);
  };
  const pending = (): number => queue.size + inFlight;
  const updateSaturation = (): void => {
    // Rows: those waiting (how far the store trails); bytes: all held (memory).
    const n = queue.size;
    const chars = queue.chars + inFlightChars;
    const full = saturated ? n >= maxQueued / 2 || chars >= maxQueuedBytes / 2 : n >= maxQueued || chars >= maxQueuedBytes;
    if (full === saturated) return;
    saturated = full;
    saturated$.next(full);
  };
  const scheduleFlush = (): void => {
    if (!timer && !writing && queue.size > 0) timer = scheduler.schedule(retry ? retryWindow : flush, flushMs);
  };
  /** After rows were queued: flush a full batch at once (unless writes are failing: see {@link retryWindow}), else make sure the timer runs. */
  const queued = (): void => {
    if (queue.size >= batchSize && !retry) flush();
    else scheduleFlush();
    updateSaturation();
  };
  /** A flush window while writes fail: retries once the backoff's windows have passed, or at once when the full disk got room. */
  function retryWindow(): void {
    timer = undefined;
    // Scheduled only while writes fail; a write that succeeds clears `retry`, and no window is scheduled while one runs.
    const failing = retry!;
    failing.waited++;
    const free = failing.freeBytes === undefined ? undefined : store.freeBytes();
    // Room for the backlog, up to ROOM_TO_RETRY: a disk other programs write to gains and loses a few KB all the time.
    if (failing.waited >= failing.windows || (free !== undefined && free - failing.freeBytes! >= Math.min(queue.chars, ROOM_TO_RETRY))) flush();
    else scheduleFlush();
  }

  function flush(): void {
    timer?.unsubscribe();
    timer = undefined;
    if (writing || queue.size === 0) return;
    const batch = queue;
    queue = store.batch();
    inFlight = batch.size;
    inFlightChars = batch.chars;
    writing = store.write(batch).then(
      (leftOut) => {
        committed += batch.size;
        inFlight = 0;
        inFlightChars = 0;
        writing = undefined;
        if (failure) log(`store: writing works again; ${batch.size - leftOut.length} delayed row(s) written`);
        failure = undefined;
        retry = undefined;
        for (const error of leftOut) refused(error);
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
          log(`${storeError.message} (${queue.size} row(s) kept in memory; retrying at least every ${maxRetryS} s${storeError.code === 'SQLITE_FULL' ? ', and as soon as the disk has room for them' : ''})`);
          options.onError?.(storeError);
        }
        failure = storeError;
        retry = {
          windows: Math.min(retry ? 2 * retry.windows : 1, maxRetryWindows),
          waited: 0,
          freeBytes: storeError.code === 'SQLITE_FULL' ? store.freeBytes() : undefined,
        };
        updateSaturation();
        scheduleFlush();
      },
    );
  }

  const onEvent = (event: AgentEvent): void => {
    try {
      queue.insert('events', event, eventJson(event));
    } catch (error) {
      // A header column that is NaN (a clock that gave NaN): refused, naming it, and the stream goes on.
      return refused(new StoreError((error as RowRefusal).message, 'ROW_REFUSED', (error as RowRefusal).reason));
    }
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
      for (const statement of statements) checkStatement(statement);
      queue.insert(table, row);
      for (const statement of statements) queue.run(statement);
      queued();
    },
    run(sql, params) {
      checkStatement({ sql, params });
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
