/**
 * The plain-object check for values from untyped callers (a signal given to
 * inject, an option). To name a value's kind in a message, use
 * mind/describeValue.ts.
 */

/** Whether a value is a plain object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
