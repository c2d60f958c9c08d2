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
 * Options: maxDepth (default: the config's maxDepth, 10), a whole number ≥ 0
 * (anything else throws, naming it: NaN, say, would compare false and never
 * end a chain).
 */
import { concatMap, EMPTY, expand, Observable, of, type OperatorFunction, type Subscriber } from 'rxjs';
import { checkNumberOption, wholeNumber } from '../mind/optionCheck.js';
import { beginCycle, record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import type { Signal } from '../streams/signals.js';
import { passRunner, type PassOutcome } from './recover.js';

export interface FeedbackOptions {
  maxDepth?: number;
}

export function feedback(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: FeedbackOptions = {}): OperatorFunction<Signal, Cycle> {
  return concatMap(feedbackChain(runtime, cycleOp, options));
}

/**
 * One signal's chain of {@link feedback} as a function (built once, used per
 * signal): its pass, then, when the pass asks for feedback, each follow-up's
 * pass at depth + 1 through `expand`. A pass without a follow-up (most of
 * them) ends its chain there, without setting up an expansion.
 */
export function feedbackChain(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: FeedbackOptions = {}): (signal: Signal) => Observable<Cycle> {
  checkNumberOption('feedback', 'maxDepth', options.maxDepth, wholeNumber(0), 'a whole number ≥ 0');
  const maxDepth = options.maxDepth ?? runtime.config.maxDepth;
  const run = passRunner(runtime, cycleOp);
  /** A pass's cycle, begun: the runtime's current pass. */
  const begin = (signal: Signal): Cycle => (runtime.currentPass = beginCycle(runtime, signal));
  // The checkpoint is taken when a pass is subscribed to, i.e. when the previous pass has finished.
  const pass = (signal: Signal): Observable<Cycle> => new Observable<Cycle>((subscriber) => run(begin(signal), subscriber));
  const followUpOf = (done: Cycle): Observable<Cycle> => {
    const followUp = done.followUp;
    if (!followUp) return EMPTY;
    if (followUp.depth > maxDepth) return of(depthExceeded(runtime, followUp, maxDepth));
    return pass(followUp);
  };
  const expandFollowUps = expand(followUpOf);
  const continueWith = (done: Cycle, subscriber: Subscriber<Cycle>) => expandFollowUps(followUpOf(done)).subscribe(subscriber);
  return (signal) => new Observable<Cycle>((subscriber) => run(begin(signal), new FirstPass(subscriber, continueWith)));
}

/** Where a signal's first pass goes: its cycle on to the chain, which then continues with the follow-ups when the pass asked for feedback. */
class FirstPass implements PassOutcome {
  private continued = false;

  constructor(
    private readonly subscriber: Subscriber<Cycle>,
    private readonly continueWith: (done: Cycle, subscriber: Subscriber<Cycle>) => void,
  ) {}

  get closed(): boolean {
    return this.subscriber.closed;
  }

  next(done: Cycle): void {
    this.subscriber.next(done);
    if (!done.followUp) return;
    this.continued = true;
    this.continueWith(done, this.subscriber);
  }

  /** A chain that continued completes when its expansion does. */
  complete(): void {
    if (!this.continued) this.subscriber.complete();
  }
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
