/**
 * toSqlite's options and the checks made on them before anything is queued: a
 * bad one throws a RangeError (TypeError for the wrong kind) naming it, e.g.
 * `toSqlite maxQueued: expected a whole number of rows ≥ 1, got NaN`. A bound
 * that is not a number compares false with every queue, so the sink would
 * never saturate and a run whose input outruns the store would grow without
 * bound; a flush period Node cannot honour runs every millisecond instead.
 */
import type { SchedulerLike } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { checkNumberOption, checkTypeOption, numberBetween, wholeNumber } from '../mind/optionCheck.js';
import { MAX_TIMER_MS } from '../streams/config.js';
import type { StoreError } from './storeError.js';

/** What `toSqlite` takes; every option has a default. */
export interface SqliteSinkOptions {
  /** Rows that start a flush at once. Default 500. */
  batchSize?: number;
  /** Longest a queued row waits before a flush starts, in ms: about what a crash loses (see docs/store.md). Default 50. */
  flushMs?: number;
  /** Queue bound: at this many rows waiting behind the transaction being written the sink is saturated (so the store trails by about a flush window at most). Default 2 000. */
  maxQueued?: number;
  /** Queue bound in bytes (the JSON of the rows held, the transaction being written included): at this much the sink is saturated too, however few rows hold it (whole-mind snapshots). Default 64 MiB. */
  maxQueuedBytes?: number;
  /** Clock for the flush timer. Default asyncScheduler. */
  scheduler?: SchedulerLike;
  /** Called once per distinct write failure, and for the first row or statement refused for good for each reason (stderr names every one). */
  onError?: (error: StoreError) => void;
  /** Where failure lines go. Default: stderr. */
  log?: (line: string) => void;
}

/** Throws naming the first option of the wrong kind or out of range. */
export function checkSqliteSinkOptions(options: SqliteSinkOptions): void {
  const { batchSize, flushMs, maxQueued, maxQueuedBytes, scheduler, onError, log } = options as Record<keyof SqliteSinkOptions, unknown>;
  checkNumberOption('toSqlite', 'batchSize', batchSize, wholeNumber(1), 'a whole number of rows ≥ 1');
  checkNumberOption('toSqlite', 'flushMs', flushMs, numberBetween(0, MAX_TIMER_MS), `a number of ms from 0 to ${MAX_TIMER_MS}`);
  checkNumberOption('toSqlite', 'maxQueued', maxQueued, wholeNumber(1), 'a whole number of rows ≥ 1');
  checkNumberOption('toSqlite', 'maxQueuedBytes', maxQueuedBytes, wholeNumber(1), 'a whole number of bytes ≥ 1');
  if (scheduler !== undefined && typeof (scheduler as { schedule?: unknown } | null)?.schedule !== 'function') {
    throw new TypeError(`toSqlite scheduler: expected an RxJS scheduler (with schedule and now), got ${describeValue(scheduler)}`);
  }
  for (const [name, value] of [['onError', onError], ['log', log]] as const) checkTypeOption('toSqlite', name, value, 'function');
}
