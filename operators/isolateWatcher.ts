/**
 * isolateWatcher: runs a watcher so that its failure ends only the watcher,
 * never the stream. A watcher fails when it errors (throws), emits
 * something other than a cycle (a `map` that returns nothing), or completes
 * before its passes do (e.g. `first()`): either way it is dropped for the rest
 * of the run, a critical `error` event names it, the pass it failed on goes on
 * carrying that event (a synthetic pass carries it when the watcher failed
 * between passes, or as it was subscribed, before any pass), and every later
 * pass bypasses it. createAgent wraps every
 * watcher, built-in or given, in it, built with {@link buildWatcher}.
 *
 * A watcher passes each pass on as it comes, once (a `map`, a `tap`; it may
 * pass on a changed copy). A pass it does not pass on at once (a `filter`, a
 * `delay`) goes on without the watcher's changes, and anything it emits beyond
 * that (a second emission, a late one) is ignored, so no pass's events are
 * lost or doubled; each, the first time, with a `warning` naming the watcher.
 *
 *   passes:                         --a---b---c--|
 *   isolateWatcher(w throws on b):  --a---b'--c--|   (b': b plus the error event; c skips w)
 *   isolateWatcher(first()):        --(ae)b---c--|   (e: a synthetic pass carrying the error event, in a's frame)
 *   isolateWatcher(filter(≠b)):     --a---b'--c--|   (b': b plus the warning, the first time)
 */
import { Observable, Subject, throwError, type OperatorFunction, type Subscription } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { notACycle, record, type Cycle, type Watcher } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';

export function isolateWatcher(runtime: Runtime, watcher: OperatorFunction<Cycle, Cycle>, name: string): OperatorFunction<Cycle, Cycle> {
  return (source) =>
    new Observable<Cycle>((subscriber) => {
      const feed = new Subject<Cycle>();
      let failed = false;
      let sourceEnded = false;
      /** The pass handed to the watcher that has not come out of it yet (during the hand-over only). */
      let entering: Cycle | undefined;
      /** Drops the watcher: the pass it failed on (or a synthetic one) goes on carrying an error event naming it. */
      const drop = (what: string): void => {
        failed = true;
        const message = `watcher ${name} ${what}; it is dropped for the rest of the run`;
        const cycle = entering ?? { signal: { type: 'error', depth: 0, meta: { source: 'watcher' }, message, severity: 'critical' }, events: [] };
        entering = undefined;
        record(runtime, cycle, 'error', { severity: 'critical', message, rolledBack: false });
        subscriber.next(cycle);
        // Failing while it drained the last passes: nothing more will come.
        if (sourceEnded) subscriber.complete();
      };
      const failure = (error: unknown): void => drop(`failed: ${error instanceof Error ? error.message : String(error)}`);
      // Each misuse is warned of once.
      let warnedHeld = false;
      let warnedExtra = false;
      const warn = (cycle: Cycle, message: string): Cycle => {
        record(runtime, cycle, 'warning', { message: `watcher ${name} ${message}, without another warning` });
        return cycle;
      };
      let watched: Subscription | undefined;
      try {
        // An operator may throw as it is applied or subscribed (or not be one): it fails before any pass.
        if (typeof watcher !== 'function') throw new TypeError(`its factory returned ${describeValue(watcher)}, not an operator function`);
        watched = feed.pipe(watcher).subscribe({
          next: (cycle) => {
            if (failed) return;
            const problem = notACycle(cycle);
            if (problem !== undefined) return drop(`emitted ${problem}, not a cycle (a watcher passes on the pass it was given, or a changed copy of it)`);
            if (entering !== undefined) {
              entering = undefined;
              subscriber.next(cycle);
            } else if (!warnedExtra) {
              warnedExtra = true;
              // Only the warning goes on: the pass this emission repeats (or came late for) has gone on already.
              subscriber.next(warn({ signal: cycle.signal, events: [] }, 'emitted a pass beyond the one it was given (a mergeMap, a delay?): it is ignored, and so are later ones'));
            }
          },
          error: failure,
          complete: () => (sourceEnded ? subscriber.complete() : drop('completed before the run ended')),
        });
      } catch (error) {
        failure(error);
      }
      const upstream = source.subscribe({
        next: (cycle) => {
          if (failed) return subscriber.next(cycle);
          entering = cycle;
          feed.next(cycle);
          if (entering === undefined) return;
          entering = undefined;
          if (!warnedHeld) {
            warnedHeld = true;
            warn(cycle, `did not pass on this ${cycle.signal.type} pass as it came (a filter, a delay?): it goes on without the watcher, and so do later ones it holds back`);
          }
          subscriber.next(cycle);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceEnded = true;
          if (failed) subscriber.complete();
          else feed.complete();
        },
      });
      return () => {
        upstream.unsubscribe();
        watched?.unsubscribe();
      };
    });
}

/**
 * The watcher's operator, from its factory; a factory that throws gives an
 * operator that fails as it is subscribed, so the watcher is dropped like any
 * other that fails before its first pass, with the error event naming it.
 */
export function buildWatcher(runtime: Runtime, watcher: Watcher): OperatorFunction<Cycle, Cycle> {
  try {
    return watcher(runtime);
  } catch (error) {
    const message = `its factory threw: ${error instanceof Error ? error.message : String(error)}`;
    return () => throwError(() => new Error(message, { cause: error }));
  }
}
