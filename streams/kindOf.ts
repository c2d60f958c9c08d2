/**
 * kindOf: what a value is, for error messages about a value of the wrong
 * kind: `null`, `an array`, or its `typeof` (`number`, `object`, …).
 */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
