/**
 * How deeply a value from outside (a sensor's reading) or a proposed tool
 * input (mind/jsonCopy.ts) may nest objects and arrays. Every signal and
 * event is written to the store through SQLite's JSON functions, which
 * refuse text nested past 1000 levels: one reading nested that deep failed
 * the batch that held it, and so the store and the run (exit 1); a few
 * thousand levels down, the mind's own handling ran out of call stack. A
 * reading (or an input) is refused at the limit instead, naming it.
 *
 *   nestedDeeperThan({ a: { b: 1 } }, 1) → true   ({ a: 1 } is 1 level)
 */

/** The most levels of objects and arrays within one another a sensor's value or a tool's input may have. */
export const MAX_VALUE_NESTING = 100;

/** Why a value nests deeper than {@link MAX_VALUE_NESTING} levels, or null. */
export function nestingProblem(value: unknown): string | null {
  if (!nestedDeeperThan(value, MAX_VALUE_NESTING)) return null;
  return `nested more than ${MAX_VALUE_NESTING} levels deep (objects and arrays within one another): the store cannot hold it`;
}

/** Whether `value` has objects or arrays more than `levels` deep; it looks no further down than that (a cyclic value is too deep). */
export function nestedDeeperThan(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  for (const child of Object.values(value)) {
    if (nestedDeeperThan(child, levels - 1)) return true;
  }
  return false;
}
