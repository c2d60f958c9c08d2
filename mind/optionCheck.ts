/**
 * Checks of a library call's options, made before it does anything: a bad
 * one throws naming the call and the option, e.g. `toSqlite maxQueued:
 * expected a whole number of rows ≥ 1, got NaN` (a TypeError for a value of
 * the wrong kind, a RangeError for one out of range). A bound that is not a
 * number compares false with everything, so it would silently switch its
 * limit off. An option left out (undefined) takes its default and passes.
 */
import { describeValue } from './describeValue.js';

/** Throws unless `value` is undefined or a number `ok` accepts; `expected` says what it takes. */
export function checkNumberOption(owner: string, name: string, value: unknown, ok: (value: number) => boolean, expected: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number') throw new TypeError(`${owner} ${name}: expected ${expected}, got ${describeValue(value)}`);
  if (!ok(value)) throw new RangeError(`${owner} ${name}: expected ${expected}, got ${value}`);
}

/** Throws unless `value` is undefined or of `type`. */
export function checkTypeOption(owner: string, name: string, value: unknown, type: 'string' | 'function'): void {
  if (value !== undefined && typeof value !== type) throw new TypeError(`${owner} ${name}: expected a ${type}, got ${describeValue(value)}`);
}

/** Throws unless `value` is undefined or one of `accepted`. */
export function checkOneOfOption(owner: string, name: string, value: unknown, accepted: readonly string[]): void {
  if (value !== undefined && !accepted.includes(value as string)) {
    throw new RangeError(`${owner} ${name}: expected ${accepted.map((a) => JSON.stringify(a)).join(' or ')}, got ${describeValue(value)}`);
  }
}

/** Whole numbers from `min` to `max`. */
export const wholeNumber =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (value: number): boolean =>
    Number.isSafeInteger(value) && value >= min && value <= max;

/** Numbers from `min` to `max` (a period in ms, say). */
export const numberBetween =
  (min: number, max: number) =>
  (value: number): boolean =>
    value >= min && value <= max;
