/**
 * isolateWatcher: runs a watcher so that its failure ends only the watcher,
 * never the stream. A watcher fails when it errors (throws) or completes
 * before its passes do (e.g. `first()`): either way it is dropped for the rest
 * of the run, a critical `error` event names it, the pass it failed on goes on
 * carrying that event (a synthetic pass carries it when the watcher failed
 * between passes, or as it was subscribed, before any pass), and every later
 * pass bypasses it. createAgent wraps every
 * watcher, built-in or given, in it, built with {@link buildWatcher}.
 *
 *   passes:                         --a--b--c--|
 *   isolateWatcher(w throws on b):  --a--b'-c--|   (b': b plus the error event; c skips w)
 *   isolateWatcher(first()):        --a-e--b--c--|  (e: a synthetic pass carrying the error event)
 */
import { Observable, Subject, throwError, type OperatorFunction, type Subscription } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { record, type Cycle, type Watcher } from '../streams/cycle.js';
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
      let watched: Subscription | undefined;
      try {
        // An operator may throw as it is applied or subscribed (or not be one): it fails before any pass.
        if (typeof watcher !== 'function') throw new TypeError(`its factory returned ${describeValue(watcher)}, not an operator function`);
        watched = feed.pipe(watcher).subscribe({
          next: (cycle) => {
            if (cycle === entering) entering = undefined;
            subscriber.next(cycle);
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
          entering = undefined;
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
