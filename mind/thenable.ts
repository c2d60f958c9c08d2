/**
 * Thenables: a real Promise or any object with a `then` method (a promise
 * from another library or realm, a hand-written lazy result), which `await`
 * and `Promise.resolve` treat alike.
 */

/** Whether `value` is a thenable: an object or function with a `then` method. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
