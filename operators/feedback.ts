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
import { concatMap, defer, EMPTY, expand, of, type Observable, type OperatorFunction } from 'rxjs';
import { beginCycle, record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import type { Signal } from '../streams/signals.js';
import { recover } from './recover.js';

export interface FeedbackOptions {
  maxDepth?: number;
}

export function feedback(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: FeedbackOptions = {}): OperatorFunction<Signal, Cycle> {
  const maxDepth = options.maxDepth ?? runtime.config.maxDepth;
  const guarded = recover(runtime, cycleOp);
  const pass = (signal: Signal): Observable<Cycle> => defer(() => of(beginCycle(runtime, signal)).pipe(guarded));
  return concatMap((signal) =>
    pass(signal).pipe(
      expand((done) => {
        const next = done.followUp;
        if (!next) return EMPTY;
        if (next.depth > maxDepth) return of(depthExceeded(runtime, next, maxDepth));
        return pass(next);
      }),
    ),
  );
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
