/**
 * stage: one step of the cycle (observe, orient, plan, decide, verify, act,
 * consolidate) as an operator over cycles. The step is a function of the
 * cycle, synchronous, or returning a promise when it waits (an asynchronous
 * tool).
 *
 * Consecutive stages fuse: a stage applied directly to another stage's output
 * joins it, and the whole run of stages executes in one subscriber. A pass
 * through the default cycle therefore costs one subscription, not one per
 * stage. Any other operator in between (a user's veto, say) simply splits the
 * run in two.
 *
 * Cycles leave in the order they came: while a stage waits on a promise, the
 * cycles behind it wait too. A step that throws (or a promise that rejects)
 * errors the stream, as `map` would; `recover` turns that into an event.
 *
 *   cycles:      --a--b--|
 *   stage(f):    --a'-b'-|      (x' = f(x))
 *   stage(g):    --~~a'b'|      (g waits on a promise for a; b follows a)
 */
import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type { Cycle } from '../streams/cycle.js';

/** A step of the cycle: the cycle out (usually the same object, updated), or a promise of it. */
export type Step = (cycle: Cycle) => Cycle | Promise<Cycle>;

export function stage(step: Step): OperatorFunction<Cycle, Cycle> {
  return (source) => (source instanceof Stages ? new Stages(source.upstream, [...source.steps, step]) : new Stages(source, [step]));
}

/** A fused run of steps over an upstream of cycles. */
class Stages extends Observable<Cycle> {
  constructor(
    readonly upstream: Observable<Cycle>,
    readonly steps: readonly Step[],
  ) {
    super((subscriber) => runSteps(upstream, steps, subscriber));
  }
}

function runSteps(upstream: Observable<Cycle>, steps: readonly Step[], subscriber: Subscriber<Cycle>) {
  /** Cycles that arrived while an earlier one waits on a promise. */
  const queued: Cycle[] = [];
  let waiting = false;
  let upstreamDone = false;

  /** Runs the steps from `from` on; returns false when a step left the cycle waiting on a promise. */
  const run = (cycle: Cycle, from: number): boolean => {
    for (let i = from; i < steps.length; i++) {
      const out = steps[i]!(cycle);
      if (out instanceof Promise) {
        waiting = true;
        out.then(
          (settled) => {
            if (subscriber.closed) return;
            waiting = false;
            if (attempt(settled, i + 1)) drain();
          },
          (error: unknown) => subscriber.error(error),
        );
        return false;
      }
      cycle = out;
    }
    subscriber.next(cycle);
    return true;
  };
  /** {@link run}, with a throwing step erroring the stream. */
  const attempt = (cycle: Cycle, from: number): boolean => {
    try {
      return run(cycle, from);
    } catch (error) {
      subscriber.error(error);
      return false;
    }
  };
  const drain = (): void => {
    while (queued.length > 0 && !waiting && !subscriber.closed) attempt(queued.shift()!, 0);
    if (upstreamDone && !waiting && queued.length === 0) subscriber.complete();
  };

  return upstream.subscribe({
    next: (cycle) => {
      if (waiting) queued.push(cycle);
      else attempt(cycle, 0);
    },
    error: (error: unknown) => subscriber.error(error),
    complete: () => {
      upstreamDone = true;
      if (!waiting) subscriber.complete();
    },
  });
}
