/**
 * stage: one step of the cycle (observe, orient, plan, decide, verify, act,
 * consolidate) as an operator over cycles. The step is a function of the
 * cycle, synchronous, or returning a promise when it waits (an asynchronous
 * tool).
 *
 * Consecutive stages fuse: a stage applied directly to another stage's output
 * joins it, and the whole run of stages executes in one subscriber. A cycle
 * made of stages only (the default cycle) needs no subscriber at all: recover
 * and feedback call its steps for each pass ({@link fusedSteps},
 * {@link runSteps}). Any other operator in between (a user's veto, say) simply
 * splits the run in two.
 *
 * Cycles leave in the order they came: while a stage waits on a promise, the
 * cycles behind it wait too. A cycle that comes again (an operator before the
 * stages emitted it twice: a `mergeMap`, a `repeat`) passes through unchanged:
 * its steps ran once, so its tool is not run twice. A step that throws (or a promise that rejects)
 * errors the stream, as `map` would; `recover` turns that into an event. So
 * does a step that returns something other than a cycle (`undefined`, a
 * copy without `events`), or an operator before the stages that emits one:
 * the error names what it was. A `step` that is no function throws at once.
 *
 *   cycles:      --a--b--|
 *   stage(f):    --a'-b'-|      (x' = f(x))
 *   stage(g):    --~~a'b'|      (g waits on a promise for a; b follows a)
 */
import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { notACycle, type Cycle } from '../streams/cycle.js';

/** A step of the cycle: the cycle out (usually the same object, updated), or a promise of it. */
export type Step = (cycle: Cycle) => Cycle | Promise<Cycle>;

export function stage(step: Step): OperatorFunction<Cycle, Cycle> {
  // Else every pass would fail as it reached it, "step is not a function", rolling back what the pass took in (a goal among it).
  if (typeof step !== 'function') throw new TypeError(`stage: expected a step, a function (cycle) => cycle, got ${describeValue(step)}`);
  return (source) => (source instanceof Stages ? new Stages(source.upstream, [...source.steps, step]) : new Stages(source, [step]));
}

/**
 * The steps of a cycle operator made of stages only (as the default cycle
 * is), else undefined. Such a cycle can be run by calling its steps
 * ({@link runSteps}) instead of subscribing to it.
 */
export function fusedSteps(cycleOp: OperatorFunction<Cycle, Cycle>): readonly Step[] | undefined {
  const probe = new Observable<Cycle>();
  const applied = cycleOp(probe);
  return applied instanceof Stages && applied.upstream === probe ? applied.steps : undefined;
}

/**
 * Runs `steps` on a cycle, from step `from` on: the finished cycle when every
 * step was synchronous, else a promise of it. A step that throws throws; a
 * promise that rejects rejects. Once `stopped()` says so, the steps after a
 * promise are not run (the pass was abandoned while it waited).
 */
export function runSteps(cycle: Cycle, steps: readonly Step[], stopped: () => boolean, from = 0): Cycle | Promise<Cycle> {
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!;
    const out = step(cycle);
    if (out instanceof Promise) return out.then((settled) => (stopped() ? settled : runSteps(stepResult(step, settled), steps, stopped, i + 1)));
    cycle = stepResult(step, out);
  }
  return cycle;
}

/** What a step returned (or its promise resolved to), when it is a cycle; else a TypeError naming the step and what it returned. */
function stepResult(step: Step, out: unknown): Cycle {
  const problem = notACycle(out);
  if (problem === undefined) return out as Cycle;
  const name = step.name ? ` (${step.name})` : '';
  throw new TypeError(`a stage step${name} returned ${problem}, not a cycle: a step returns the cycle it was given (or a promise of it)`);
}

/** A fused run of steps over an upstream of cycles. */
class Stages extends Observable<Cycle> {
  constructor(
    readonly upstream: Observable<Cycle>,
    readonly steps: readonly Step[],
  ) {
    super((subscriber) => upstream.subscribe(new StagesObserver(steps, subscriber)));
  }
}

/** Runs each cycle from upstream through the steps, in order: while one waits on a promise, the cycles behind it queue. */
class StagesObserver {
  private readonly queued: Cycle[] = [];
  /** The cycles the steps have run on (weakly: a long stream of cycles is not kept). */
  private readonly ran = new WeakSet<Cycle>();
  private waiting = false;
  private upstreamDone = false;
  private readonly stopped = () => this.subscriber.closed;

  constructor(
    private readonly steps: readonly Step[],
    private readonly subscriber: Subscriber<Cycle>,
  ) {}

  next(cycle: Cycle): void {
    if (this.waiting) this.queued.push(cycle);
    else this.run(cycle);
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.upstreamDone = true;
    if (!this.waiting) this.subscriber.complete();
  }

  private run(cycle: Cycle): void {
    const problem = notACycle(cycle);
    if (problem !== undefined) {
      this.subscriber.error(new TypeError(`the operator before a stage emitted ${problem}, not a cycle: an operator between stages passes on the cycle it was given`));
      return;
    }
    if (this.ran.has(cycle)) {
      this.subscriber.next(cycle);
      return;
    }
    this.ran.add(cycle);
    let out: Cycle | Promise<Cycle>;
    try {
      out = runSteps(cycle, this.steps, this.stopped);
    } catch (error) {
      this.subscriber.error(error);
      return;
    }
    if (!(out instanceof Promise)) {
      this.subscriber.next(out);
      return;
    }
    this.waiting = true;
    out.then(
      (settled) => {
        if (this.subscriber.closed) return;
        this.waiting = false;
        this.subscriber.next(settled);
        this.drain();
      },
      (error: unknown) => this.subscriber.error(error),
    );
  }

  private drain(): void {
    while (this.queued.length > 0 && !this.waiting && !this.subscriber.closed) this.run(this.queued.shift()!);
    if (this.upstreamDone && !this.waiting && this.queued.length === 0) this.subscriber.complete();
  }
}
