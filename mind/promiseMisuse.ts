/**
 * Hooks that must answer synchronously (a skill's trigger, propose and verify,
 * a tool's propose) are checked for a promise, the mark of an `async`
 * function: its answer would come too late to count, so it is reported
 * instead of being taken for a value. The promise is never awaited; its
 * rejection is swallowed so that it cannot surface as an unhandled one.
 */
import { isThenable } from './thenable.js';

/** Whether `value` is a promise (or thenable) returned where a synchronous answer was due. */
export function isPromiseMisuse(value: unknown): boolean {
  if (!isThenable(value)) return false;
  Promise.resolve(value).catch(() => undefined);
  return true;
}

/** The message for a hook that returned a promise: `what` names the hook and `due` what it must return. */
export function promiseMisuseMessage(what: string, due: string): string {
  return `${what} returned a Promise: it must return ${due} synchronously, not from an async function`;
}
