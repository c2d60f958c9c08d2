/**
 * feedback: drives each signal through the cycle, and each pass's follow-up
 * signal back through it at depth + 1, via `expand` (seed 004's feedback
 * loop). Every pass starts at a mind checkpoint and runs under `recover`, so an
 * error is an event, never a stream error. A follow-up past `maxDepth` ends the
 * chain with one `error` event ("max depth 10 reached"), never a hang.
 *
 *   signals:                     --s------|
 *   feedback(rt, cycle):         --(abc)--|   (a: s's pass, b: its follow-up at depth 1, …)
 *
 * Options: maxDepth (default: the config's maxDepth, 10).
 */
import { concatMap, EMPTY, expand, Observable, of, type OperatorFunction } from 'rxjs';
import { beginCycle, record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import type { Signal } from '../streams/signals.js';
import { recoveringPass } from './recover.js';

export interface FeedbackOptions {
  maxDepth?: number;
}

export function feedback(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: FeedbackOptions = {}): OperatorFunction<Signal, Cycle> {
  return concatMap(feedbackChain(runtime, cycleOp, options));
}

/**
 * One signal's chain of {@link feedback} as a function (built once, used per
 * signal): its pass, then each follow-up's pass at depth + 1.
 */
export function feedbackChain(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: FeedbackOptions = {}): (signal: Signal) => Observable<Cycle> {
  const maxDepth = options.maxDepth ?? runtime.config.maxDepth;
  const guarded = recoveringPass(runtime, cycleOp);
  // The checkpoint is taken when the pass is subscribed to, i.e. when the previous pass has finished.
  const pass = (signal: Signal): Observable<Cycle> => new Observable<Cycle>((subscriber) => guarded(beginCycle(runtime, signal)).subscribe(subscriber));
  const next = (done: Cycle): Observable<Cycle> => {
    const followUp = done.followUp;
    if (!followUp) return EMPTY;
    if (followUp.depth > maxDepth) return of(depthExceeded(runtime, followUp, maxDepth));
    return pass(followUp);
  };
  return (signal) => pass(signal).pipe(expand(next));
}

function depthExceeded(runtime: Runtime, signal: Signal, maxDepth: number): Cycle {
  const cycle: Cycle = { signal, events: [] };
  record(runtime, cycle, 'error', {
    severity: 'transient',
    message: `max depth ${maxDepth} reached`,
    rolledBack: false,
    signalType: signal.type,
    depth: signal.depth,
  });
  return cycle;
}
