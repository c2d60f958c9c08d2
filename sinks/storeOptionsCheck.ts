/**
 * The checks `SqliteStore.open` makes on its options before it touches the
 * file: a bad one throws a RangeError (TypeError for the wrong kind) naming it,
 * e.g. `SqliteStore.open synchronous: expected "normal" or "full", got "FULL"`.
 * The store sets FULL only for exactly `full`, so any other spelling would
 * have silently run with NORMAL durability.
 */
import { describeValue } from '../mind/describeValue.js';
import { MAX_TIMER_MS } from '../streams/config.js';
import type { StoreOptions } from './sqliteStore.js';

/** Throws naming the first option of the wrong kind or out of range. */
export function checkStoreOptions(options: StoreOptions): void {
  const { synchronous, busyTimeoutMs, batchSize, access } = options as Record<keyof StoreOptions, unknown>;
  const oneOf = (name: string, value: unknown, accepted: readonly string[]): void => {
    if (value !== undefined && !accepted.includes(value as string)) {
      throw new RangeError(`SqliteStore.open ${name}: expected ${accepted.map((a) => JSON.stringify(a)).join(' or ')}, got ${describeValue(value)}`);
    }
  };
  const number = (name: string, value: unknown, ok: (value: number) => boolean, expected: string): void => {
    if (value === undefined) return;
    if (typeof value !== 'number') throw new TypeError(`SqliteStore.open ${name}: expected ${expected}, got ${describeValue(value)}`);
    if (!ok(value)) throw new RangeError(`SqliteStore.open ${name}: expected ${expected}, got ${value}`);
  };
  oneOf('synchronous', synchronous, ['normal', 'full']);
  oneOf('access', access, ['create', 'existing', 'read']);
  number('busyTimeoutMs', busyTimeoutMs, (ms) => ms >= 0 && ms <= MAX_TIMER_MS, `a number of ms from 0 to ${MAX_TIMER_MS}`);
  number('batchSize', batchSize, (n) => Number.isSafeInteger(n) && n >= 1, 'a whole number of rows ≥ 1');
}
