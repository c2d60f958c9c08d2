/**
 * Values as error messages show them. {@link describeValue} names a value's
 * kind (for "expected …, got …"); {@link showValue} shows its content, cut
 * short (for "returned …, not …").
 */

/** Strings quoted, numbers and the like as written, functions, arrays and objects by kind (never their contents). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

/** Longest a value is shown by {@link showValue}. */
const SHOWN_CHARS = 120;

/** A value's JSON (or its string form when it has none), cut at 120 characters. */
export function showValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = `a value with no JSON form (${typeof value})`;
  }
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} chars)` : text;
}
