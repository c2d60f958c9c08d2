/**
 * abandonable: lets the run give up on a pass that is still waiting (on a
 * tool) when it stops. When `runtime.abandon$` emits, the pass's
 * subscription is cut (its late result is discarded) and a pass reporting
 * the abandonment takes its place: the events the pass recorded before it
 * waited (its goal, observation, decision, …: the mind keeps what they
 * report), whether on a tool or on the cycle operator, then a transient
 * `error` event naming the tool it waited on (`runtime.waitingOn`), if it
 * was a tool. A pass whose
 * synchronous part finishes it is never affected (and never listens).
 *
 *   pass:                 --~~~~~~~~c--|    (waiting on a tool)
 *   abandon$:             -----x
 *   abandonable(rt, s):   -----A|           (A: a pass with the `abandoned` error event)
 */
import { Observable, type OperatorFunction } from 'rxjs';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import type { Signal } from '../streams/signals.js';

export function abandonable(runtime: Runtime, signal: Signal): OperatorFunction<Cycle, Cycle> {
  return (pass$) =>
    new Observable<Cycle>((subscriber) => {
      const pass = pass$.subscribe({
        next: (cycle) => subscriber.next(cycle),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      const cut = subscriber.closed
        ? undefined
        : runtime.abandon$.subscribe(() => {
            pass.unsubscribe();
            subscriber.next(abandonedPass(runtime, signal));
            subscriber.complete();
          });
      return () => {
        cut?.unsubscribe();
        pass.unsubscribe();
      };
    });
}

/** The pass that reports a pass abandoned while it waited (on a tool, named, or on the cycle operator: a stage's promise, an operator that has not emitted), because the run stopped. */
function abandonedPass(runtime: Runtime, signal: Signal): Cycle {
  const waited = runtime.waitingOn;
  // What the pass recorded before it waited (its goal, its decision, …) stands: the mind kept it.
  const cycle: Cycle = { signal, events: [...(waited?.events ?? runtime.currentPass?.events ?? [])] };
  runtime.waitingOn = undefined;
  runtime.currentPass = undefined;
  const on = waited ? `tool ${waited.tool} (for goal ${waited.goalId})` : "the cycle operator (a stage's promise, or an operator that has not emitted)";
  record(runtime, cycle, 'error', {
    severity: 'transient',
    message: `abandoned: the run stopped while the pass was waiting on ${on}; its result is discarded`,
    rolledBack: false,
    signalType: signal.type,
    depth: signal.depth,
    ...(waited ? { tool: waited.tool } : {}),
  });
  return cycle;
}
