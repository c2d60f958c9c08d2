/**
 * recover: runs the cycle for each pass in isolation and turns any error into
 * an `error` event (seed 004's metabolic rules), so the outer stream never errors.
 *
 * - A transient error (a ToolFailure) keeps state.
 * - A critical error (anything else) rolls the mind back to the checkpoint
 *   taken when the pass's signal entered; the pass's events are dropped but for
 *   `perceived`, so the stream never reports state that no longer exists.
 * - Unless the failing pass was itself handling an error, or its depth is above
 *   `retryDepth` (2), an `error` signal at depth + 1 retries the cycle.
 *
 *   passes:                  --a--b--|    (b's cycle throws)
 *   recover(rt, cycle):      --a--b'-|    (b' carries the error event and a retry follow-up)
 */
import { mergeMap, Observable, type OperatorFunction } from 'rxjs';
import { ToolFailure } from '../mind/tool.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';

export interface RecoverOptions {
  /** Passes deeper than this end their chain on error instead of retrying. Default 2. */
  retryDepth?: number;
}

export function recover(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: RecoverOptions = {}): OperatorFunction<Cycle, Cycle> {
  return mergeMap(recoveringPass(runtime, cycleOp, options));
}

/**
 * One pass of {@link recover} as a function: the cycle run through `cycleOp`,
 * an error becoming the recovered pass. The operator chain is built once;
 * each pass subscribes to it anew (so an error ends only its own pass), with
 * the pass's cycle handed to the chain's source on subscription. Passes never
 * overlap (feedback and concatMap run one at a time).
 */
export function recoveringPass(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: RecoverOptions = {}): (cycle: Cycle) => Observable<Cycle> {
  let entering: Cycle | undefined;
  const chain = new Observable<Cycle>((subscriber) => {
    const cycle = entering!;
    entering = undefined;
    subscriber.next(cycle);
    subscriber.complete();
  }).pipe(cycleOp);
  return (cycle) =>
    new Observable<Cycle>((subscriber) => {
      entering = cycle;
      return chain.subscribe({
        next: (done) => subscriber.next(done),
        error: (error: unknown) => {
          subscriber.next(recoverFrom(runtime, cycle, error, options));
          subscriber.complete();
        },
        complete: () => subscriber.complete(),
      });
    });
}

/** Applies the recovery rules to a pass that failed with `error`. */
export function recoverFrom(runtime: Runtime, cycle: Cycle, error: unknown, { retryDepth = 2 }: RecoverOptions = {}): Cycle {
  const severity = error instanceof ToolFailure ? 'transient' : 'critical';
  const message = error instanceof Error ? error.message : String(error);
  const signal = cycle.signal;
  let rolledBack = false;
  if (severity === 'critical') {
    runtime.mind.rollback();
    rolledBack = true;
    const kept = cycle.events.filter((e) => e.kind === 'perceived');
    cycle.events.length = 0;
    cycle.events.push(...kept);
    delete cycle.decision;
    delete cycle.outcome;
  }
  const body = { severity, message, rolledBack, signalType: signal.type, depth: signal.depth } as {
    severity: 'transient' | 'critical';
    message: string;
    rolledBack: boolean;
    signalType: string;
    depth: number;
    tool?: string;
  };
  if (error instanceof ToolFailure) body.tool = error.tool;
  record(runtime, cycle, 'error', body);
  cycle.failure = { severity, message };
  delete cycle.followUp;
  if (signal.type !== 'error' && signal.depth <= retryDepth) {
    cycle.followUp = { type: 'error', depth: signal.depth + 1, meta: signal.meta, at: runtime.now(), message, severity };
  }
  return cycle;
}
