/**
 * Whether a value can be written as JSON, as every event is (stdout, the
 * store, the dashboard): a BigInt anywhere in it, or a cycle of references,
 * makes `JSON.stringify` throw, far from where the value came from.
 */

/** Why `JSON.stringify(value)` throws (`it holds a BigInt`, `it refers to itself`), or undefined when it does not. */
export function jsonProblem(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    if (error instanceof TypeError && /BigInt/i.test(error.message)) return 'it holds a BigInt';
    if (error instanceof TypeError && /circular/i.test(error.message)) return 'it refers to itself (a circular structure)';
    return `JSON.stringify failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
