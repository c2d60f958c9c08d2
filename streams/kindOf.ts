/**
 * Value-kind checks for values from untyped callers (a signal given to
 * inject, a tool or skill option, stored JSON). To name a value's kind in a
 * message, use mind/describeValue.ts.
 */

/** Whether a value is a plain object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
