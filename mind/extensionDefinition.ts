/**
 * What a mind extension must be, checked as it is registered, as a tool's
 * definition and a skill are: a `name` that is a non-empty string, `toJSON`
 * and `load` functions, and `forgetGoal` and `dropPlan` functions when it has
 * them. Without the check an extension missing `toJSON` was registered, and
 * every later `mind.toJSON()` (each snapshot the store writes) failed with
 * `ext.toJSON is not a function`, naming no extension.
 */
import { describeValue } from './describeValue.js';
import type { MindExtension } from './mind.js';

/** Throws an Error naming the extension and what it lacks: `mind extension "notes": toJSON must be a function (got undefined)`. */
export function checkExtension(extension: MindExtension): void {
  if (extension === null || typeof extension !== 'object') {
    throw new Error(`a mind extension is an object with a name, toJSON() and load(json) (got ${describeValue(extension)})`);
  }
  const { name } = extension;
  if (typeof name !== 'string' || name.trim() === '') throw new Error(`a mind extension needs a name (a non-empty string, got ${describeValue(name)})`);
  const members = extension as unknown as Record<string, unknown>;
  for (const method of ['toJSON', 'load']) {
    if (typeof members[method] !== 'function') throw new Error(`mind extension ${JSON.stringify(name)}: ${method} must be a function (got ${describeValue(members[method])})`);
  }
  for (const method of ['forgetGoal', 'dropPlan']) {
    if (members[method] !== undefined && typeof members[method] !== 'function') {
      throw new Error(`mind extension ${JSON.stringify(name)}: ${method} must be a function when given (got ${describeValue(members[method])})`);
    }
  }
}
