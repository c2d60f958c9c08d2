/**
 * Whether a definition was written as an object literal. A literal's keys are
 * all it has, so an unknown one is a typo to refuse (`consolidate` for
 * `consolidates`, `verfy` for `verify`); an instance of a class may keep its
 * own state beside the keys a definition takes.
 */

/** Whether a value was written as an object literal (not an instance of a class). */
export function isObjectLiteral(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
