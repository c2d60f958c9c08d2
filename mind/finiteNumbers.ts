/**
 * Numbers JSON cannot write: NaN and ±Infinity (JSON.parse makes 1e400
 * Infinity). JSON.stringify writes them as null, so a sensor value
 * `{"x":1e400}` was taken in, stored and shown as `{"x":null}`; a value
 * holding one is refused instead, naming where, as a number on its own is.
 *
 *   nonFiniteProblem({ x: [1, NaN] }, 'value') → 'value.x.1: expected a finite number, got NaN'
 */

/** What is said of a number that is not finite: `expected a finite number, got Infinity`. */
export function notFinite(value: number): string {
  return `expected a finite number, got ${value}`;
}

/**
 * Where `value`, named `path`, holds a number that is not finite (in its
 * objects and arrays: the first found, with its path joined by `.`), or null.
 * It looks at every level: check the nesting first (mind/jsonNesting.ts).
 */
export function nonFiniteProblem(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path}: ${notFinite(value)}`;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const problem = nonFiniteProblem(child, `${path}.${key}`);
    if (problem) return problem;
  }
  return null;
}
