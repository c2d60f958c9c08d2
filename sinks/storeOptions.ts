/**
 * `SqliteStore.open`'s options and the checks it makes on them before it
 * touches the file: a bad one throws a RangeError (TypeError for the wrong
 * kind) naming it, e.g. `SqliteStore.open synchronous: expected "normal" or
 * "full", got "FULL"`. The store sets FULL only for exactly `full`, so any
 * other spelling would have silently run with NORMAL durability.
 */
import { checkNumberOption, checkOneOfOption, numberBetween, wholeNumber } from '../mind/optionCheck.js';
import { MAX_TIMER_MS } from '../streams/config.js';

export type Synchronous = 'normal' | 'full';

/**
 * How a store is opened:
 * - `create`: read-write, the file is created when missing, and migrated;
 * - `existing`: the same, but a missing file is an error (resuming a session);
 * - `read`: read-only, a missing file is an error and the schema must be this
 *   program's (listing sessions, printing events, replaying, recalling).
 */
export type StoreAccess = 'create' | 'existing' | 'read';

export interface StoreOptions {
  /** `synchronous` pragma: NORMAL (default; WAL keeps the file consistent, the last commits may be lost on power loss) or FULL. */
  synchronous?: Synchronous;
  /** How long to wait for another process's lock before failing, in ms. Default 2000. */
  busyTimeoutMs?: number;
  /** Rows per INSERT statement. Default 500. */
  batchSize?: number;
  /** Default `create`. */
  access?: StoreAccess;
  /** Once aborted, a writer stops waiting for another writer's lock, failing at once as the wait's end would. */
  signal?: AbortSignal;
}

/** Throws naming the first option of the wrong kind or out of range. */
export function checkStoreOptions(options: StoreOptions): void {
  const { synchronous, busyTimeoutMs, batchSize, access } = options as Record<keyof StoreOptions, unknown>;
  checkOneOfOption('SqliteStore.open', 'synchronous', synchronous, ['normal', 'full']);
  checkOneOfOption('SqliteStore.open', 'access', access, ['create', 'existing', 'read']);
  checkNumberOption('SqliteStore.open', 'busyTimeoutMs', busyTimeoutMs, numberBetween(0, MAX_TIMER_MS), `a number of ms from 0 to ${MAX_TIMER_MS}`);
  checkNumberOption('SqliteStore.open', 'batchSize', batchSize, wholeNumber(1), 'a whole number of rows ≥ 1');
}
