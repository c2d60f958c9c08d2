/**
 * A pass's entry through the `onEnter` hook (see `AgentOptions.onEnter`): what
 * takes the pass, and the errors it reports besides its own, each a critical
 * `error` event on its first cycle.
 *
 * - The hook may return the item it marked, of the same kind (a signal for a
 *   signal, a rejection for a rejection), which then takes the pass; anything
 *   else it returns (a `push`'s count, a Map) is ignored. A marked item whose
 *   signal has no signal envelope (`{ signal: null }`) is an error of the
 *   pass, and the item as it entered takes the pass.
 * - A hook that throws is an error of the pass (`onEnter failed: …; the pass
 *   went on`); the stream never errors.
 * - A list of hooks is called in order, each with the item the ones before it
 *   let take the pass; one that throws or marks wrongly is reported by its
 *   index (`onEnter[0] failed: …`), and the next ones are still called, so a
 *   recorder after a failing hook still records the pass.
 * - A signal a recorder marked `meta.snapshotFailed` reports that failure, so
 *   a replay of the recorded signal reports it as the run did.
 */
import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { EnterHook, Entering } from './agentOptions.js';
import { record, type Cycle } from './cycle.js';
import { describeValue } from '../mind/describeValue.js';
import { isObject } from './isObject.js';
import { envelopeProblem } from './sourceEntries.js';
import type { Runtime } from './runtime.js';

const NONE: readonly string[] = [];

/** Calls the `onEnter` hook (or each hook, in order) with what enters; what takes the pass, and the errors it reports. */
export function enterPass(onEnter: EnterHook | readonly EnterHook[] | undefined, entering: Entering): { item: Entering; errors: readonly string[] } {
  let item = entering;
  const failures: string[] = [];
  const hooks = typeof onEnter === 'function' ? [onEnter] : (onEnter ?? []);
  hooks.forEach((hook, i) => {
    const name = typeof onEnter === 'function' ? 'onEnter' : `onEnter[${i}]`;
    try {
      const marked: unknown = hook(item);
      if (isObject(marked) && ('signal' in item ? 'signal' in marked : 'rejected' in marked)) {
        const problem = 'signal' in marked ? envelopeProblem(marked.signal) : isObject(marked.rejected) ? undefined : `${describeValue(marked.rejected)}, not a rejection`;
        if (problem === undefined) item = marked as Entering;
        else failures.push(`${name} returned a marked item the pass cannot take (${problem}); the item as it entered took the pass`);
      }
    } catch (error) {
      failures.push(`${name} failed: ${error instanceof Error ? error.message : String(error)}; the pass went on`);
    }
  });
  const snapshotFailed = 'signal' in item ? item.signal.meta.snapshotFailed : undefined;
  if (snapshotFailed === undefined && failures.length === 0) return { item, errors: NONE };
  return { item, errors: snapshotFailed === undefined ? failures : [snapshotFailed, ...failures] };
}

/** Records `errors` on the pass's first cycle (the pass as it is when there are none). */
export function reportEnterErrors(runtime: Runtime, errors: readonly string[]): MonoTypeOperatorFunction<Cycle> {
  if (errors.length === 0) return (pass$) => pass$;
  let reported = false;
  return tap((cycle) => {
    if (reported) return;
    reported = true;
    for (const message of errors) record(runtime, cycle, 'error', { severity: 'critical', message, rolledBack: false });
  });
}
