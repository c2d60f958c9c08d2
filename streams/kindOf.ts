/**
 * Value kinds, for checking values from untyped callers and naming what was
 * wrong: `kindOf` says what a value is (`null`, `an array`, or its `typeof`),
 * `isObject` whether it is a plain (non-null, non-array) object.
 */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
