/**
 * A value as an error message shows it: strings quoted, numbers and the like
 * as written, functions, arrays and objects by kind (never their contents).
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}
