/**
 * isolateWatcher: runs a watcher so that its error ends only the watcher,
 * never the stream: the pass it failed on goes on carrying a critical `error`
 * event that names it (a synthetic pass carries it when the watcher failed
 * between passes), and every later pass bypasses it. createAgent wraps every
 * watcher, built-in or given, in it.
 *
 *   passes:                         --a--b--c--|
 *   isolateWatcher(w throws on b):  --a--b'-c--|   (b': b plus the error event; c skips w)
 */
import { Observable, Subject, type OperatorFunction } from 'rxjs';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';

export function isolateWatcher(runtime: Runtime, watcher: OperatorFunction<Cycle, Cycle>, name: string): OperatorFunction<Cycle, Cycle> {
  return (source) =>
    new Observable<Cycle>((subscriber) => {
      const feed = new Subject<Cycle>();
      let failed = false;
      /** The pass handed to the watcher that has not come out of it yet (during the hand-over only). */
      let entering: Cycle | undefined;
      const watched = feed.pipe(watcher).subscribe({
        next: (cycle) => {
          if (cycle === entering) entering = undefined;
          subscriber.next(cycle);
        },
        error: (error: unknown) => {
          failed = true;
          const message = error instanceof Error ? error.message : String(error);
          const cycle = entering ?? { signal: { type: 'error', depth: 0, meta: { source: 'watcher' }, message, severity: 'critical' }, events: [] };
          entering = undefined;
          record(runtime, cycle, 'error', {
            severity: 'critical',
            message: `watcher ${name} failed: ${message}; it is dropped for the rest of the run`,
            rolledBack: false,
          });
          subscriber.next(cycle);
        },
        complete: () => subscriber.complete(),
      });
      const upstream = source.subscribe({
        next: (cycle) => {
          if (failed) return subscriber.next(cycle);
          entering = cycle;
          feed.next(cycle);
          entering = undefined;
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => (failed ? subscriber.complete() : feed.complete()),
      });
      return () => {
        upstream.unsubscribe();
        watched.unsubscribe();
      };
    });
}
