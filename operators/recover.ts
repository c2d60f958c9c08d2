/**
 * recover: runs the cycle for each pass in isolation and turns any error into
 * an `error` event (seed 004's metabolic rules), so the outer stream never errors.
 *
 * - A transient error (a ToolFailure) keeps state.
 * - A critical error (anything else) rolls the mind back to the checkpoint
 *   taken when the pass's signal entered; the pass's events are dropped but for
 *   `perceived` and the `error`s already reported, so the stream never
 *   reports state that no longer exists and loses no report.
 *   The attempt still counts, so a bug that always throws cannot loop forever:
 *   a pass whose decided tool hit a bug (a ToolBug) keeps its `decision`
 *   event and is re-applied as a failed run of that tool (its goal's plan steered again,
 *   then a `failed` action; the cycle, the decision log and the goal's
 *   failure and stall counters advance, and the plan backtracks: see
 *   mind/rolledBackAttempt.ts); a pass that decided, or a driver tick, whose
 *   pass hit a bug anywhere else (a stage, an operator between stages) blames
 *   no tool and still uses up its cycle (no two tool runs share a cycle
 *   number, which keys their effects).
 * - Unless the failing pass was itself handling an error, or its depth is above
 *   `retryDepth` (2), an `error` signal at depth + 1 retries the cycle.
 *
 *   passes:                  --a--b--|    (b's cycle throws)
 *   recover(rt, cycle):      --a--b'-|    (b' carries the error event and a retry follow-up)
 */
import { mergeMap, Observable, type OperatorFunction, type Subscription } from 'rxjs';
import { checkNumberOption, wholeNumber } from '../mind/optionCheck.js';
import { countRolledBackAttempt } from '../mind/rolledBackAttempt.js';
import { ToolBug, ToolFailure } from '../mind/tool.js';
import { notACycle, record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { recordOutcome } from './act.js';
import { recordPlanChanges } from './changeEvents.js';
import { intake, isTakenIn } from './intake.js';
import { fusedSteps, runSteps } from './stage.js';

export interface RecoverOptions {
  /** Passes deeper than this end their chain on error instead of retrying. Default 2; a whole number ≥ 0 (anything else throws, naming it). */
  retryDepth?: number;
}

export function recover(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: RecoverOptions = {}): OperatorFunction<Cycle, Cycle> {
  checkNumberOption('recover', 'retryDepth', options.retryDepth, wholeNumber(0), 'a whole number ≥ 0');
  const run = passRunner(runtime, cycleOp, options);
  return mergeMap((cycle) => new Observable<Cycle>((subscriber) => run(cycle, subscriber)));
}

/** Where a pass's outcome goes: its one cycle, as it finished or as recovered. */
export interface PassOutcome {
  /** True once the pass is abandoned: a pass waiting on a promise then stops there. */
  readonly closed: boolean;
  next(cycle: Cycle): void;
  complete(): void;
}

/**
 * Runs one pass of {@link recover}: the cycle through `cycleOp`, an error
 * becoming the recovered pass; the outcome gets the cycle, then completes.
 * Returns the pass's subscription when it has one to cancel. Passes never
 * overlap (feedback and concatMap run one at a time).
 *
 * A cycle operator made of stages only (the default cycle) is run by calling
 * its steps; any other is built once and subscribed to anew for each pass
 * (so an error ends only its own pass), the pass's cycle handed to the
 * chain's source on subscription. A pass that comes out as something other
 * than a cycle (a `map` that returns nothing) is a bug of the cycle
 * operator: a critical error naming what came out.
 */
export function passRunner(runtime: Runtime, cycleOp: OperatorFunction<Cycle, Cycle>, options: RecoverOptions = {}): (cycle: Cycle, outcome: PassOutcome) => Subscription | void {
  const finish = (outcome: PassOutcome, done: Cycle) => {
    outcome.next(done);
    outcome.complete();
  };
  const guard = new PassGuard(runtime);
  const steps = fusedSteps(cycleOp);
  if (steps) {
    return (cycle, outcome) => {
      let out: Cycle | Promise<Cycle>;
      try {
        out = runSteps(cycle, steps, () => outcome.closed);
      } catch (error) {
        return finish(outcome, recoverFrom(runtime, cycle, error, options));
      }
      if (!(out instanceof Promise)) return finish(outcome, guard.ended(cycle, out));
      // An abandoned pass ends where it waited: no recovery, no follow-up.
      out.then(
        (done) => outcome.closed || finish(outcome, guard.ended(cycle, done)),
        (error: unknown) => outcome.closed || finish(outcome, recoverFrom(runtime, cycle, error, options)),
      );
    };
  }
  let entering: Cycle | undefined;
  const chain = new Observable<Cycle>((subscriber) => {
    const cycle = entering!;
    entering = undefined;
    subscriber.next(cycle);
    subscriber.complete();
  }).pipe(cycleOp);
  return (cycle, outcome) => {
    entering = cycle;
    // The pass ends when the chain completes, with its first emission (later ones are not the pass's).
    let emitted = false;
    let done: Cycle | undefined;
    let repeated = false;
    return chain.subscribe({
      next: (out) => {
        if (emitted) repeated = true;
        else (emitted = true), (done = out);
      },
      error: (error: unknown) => finish(outcome, recoverFrom(runtime, cycle, error, options)),
      complete: () => {
        if (!emitted) return finish(outcome, guard.ended(cycle, guard.dropped(cycle)));
        const problem = notACycle(done);
        if (problem !== undefined) {
          const error = new TypeError(`the cycle operator emitted ${problem}, not a cycle: each operator in it passes on the cycle it was given`);
          return finish(outcome, recoverFrom(runtime, cycle, error, options));
        }
        finish(outcome, guard.ended(cycle, repeated ? guard.repeated(done!) : done!));
      },
    });
  };
}

/**
 * What a cycle operator that skips decide or act gets told. A pass the operator
 * drops (a `filter` between stages) still ends, as its cycle stood, with a
 * `warning` the first time; a pass it emits more than once ends once, with
 * its first emission, and a `warning` the first time. A driver tick that ends without a decision while
 * a goal is active (the operator filtered decide out, or has none) gets a
 * `warning` the first time; the driver then waits for the next signal instead
 * of ticking on (see streams/driver.ts). A pass that decided and was not
 * acted on (no act, or act before decide) gets a `warning` the first time.
 */
class PassGuard {
  private warnedDropped = false;
  private warnedRepeated = false;
  private warnedUndecided = false;
  private warnedUnacted = false;
  private warnedIntake = false;

  constructor(private readonly runtime: Runtime) {}

  private takeIn(cycle: Cycle): void {
    intake(this.runtime, cycle);
    if (this.warnedIntake || cycle.signal.type === 'tick') return;
    this.warnedIntake = true;
    const message = `the cycle operator did not take this ${cycle.signal.type} signal in (it has no observe stage, or dropped the pass before it): it was taken in as the pass ended, and so will later ones be, without another warning`;
    record(this.runtime, cycle, 'warning', { message });
  }

  dropped(cycle: Cycle): Cycle {
    if (this.warnedDropped) return cycle;
    this.warnedDropped = true;
    const message = `the cycle operator emitted nothing for this ${cycle.signal.type} pass (a filter between stages?): the pass ends as it stood, and so will later dropped passes, without another warning`;
    record(this.runtime, cycle, 'warning', { message });
    return cycle;
  }

  repeated(cycle: Cycle): Cycle {
    if (this.warnedRepeated) return cycle;
    this.warnedRepeated = true;
    const message = `the cycle operator emitted this ${cycle.signal.type} pass more than once (a mergeMap or repeat between stages?): only its first emission counts, and the stages after it pass a cycle they have already run on through unchanged (its tool is not run again); so for later passes, without another warning`;
    record(this.runtime, cycle, 'warning', { message });
    return cycle;
  }

  /** The pass as it ends; its signal taken in first if the cycle operator did not (it has no observe, or dropped the pass before it). */
  ended(entering: Cycle, cycle: Cycle): Cycle {
    if (!isTakenIn(entering) && !isTakenIn(cycle)) this.takeIn(cycle);
    if (cycle.decision && cycle.goal && cycle.outcome === undefined && !this.warnedUnacted) {
      this.warnedUnacted = true;
      const message = `this pass decided on ${cycle.decision.tool} for goal ${cycle.goal.id} but nothing acted on it (does the cycle operator leave out act, or put it before decide?): the tool did not run, and so will later decisions not, without another warning`;
      record(this.runtime, cycle, 'warning', { message });
    }
    if (cycle.decision !== undefined || cycle.signal.type !== 'tick' || this.warnedUndecided || !this.runtime.mind.goals.hasActive()) return cycle;
    this.warnedUndecided = true;
    const message = 'a driver tick ended without a decision while a goal is active (does the cycle operator leave out or filter out decide?): the driver waits for the next signal instead of ticking on';
    record(this.runtime, cycle, 'warning', { message });
    return cycle;
  }
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
    // Only a bug inside the decided tool counts against it; a bug elsewhere in the cycle blames no tool.
    const decision = error instanceof ToolBug && cycle.goal ? cycle.decision : undefined;
    // Kept, in order: what was taken in, the errors already reported on the pass (an extension that failed to forget a retired goal, a failed skill, an onEnter hook's: reports, not state) and a blamed tool's decisions.
    const kept = cycle.events.filter((e) => e.kind === 'perceived' || e.kind === 'error' || (!!decision && e.kind === 'decision'));
    const decided = decision ? kept.findIndex((e) => e.kind === 'decision') : -1;
    cycle.events.length = 0;
    cycle.events.push(...(decided < 0 ? kept : kept.slice(0, decided)));
    delete cycle.outcome;
    if (decision) {
      const attempt = countRolledBackAttempt(runtime.mind, decision, message, runtime.now);
      recordPlanChanges(runtime, cycle, attempt.planChanges);
      if (decided >= 0) cycle.events.push(...kept.slice(decided));
      recordOutcome(runtime, cycle, decision, { kind: 'failed', error: message }, attempt.outcome);
    } else {
      // Its cycle number stays used: a tool that ran keyed its effects by it (operators/toolEffect.ts).
      if (signal.type === 'tick' || cycle.decision) runtime.mind.nextCycle();
      delete cycle.decision;
    }
  }
  const body = { severity, message, rolledBack, signalType: signal.type, depth: signal.depth } as {
    severity: 'transient' | 'critical';
    message: string;
    rolledBack: boolean;
    signalType: string;
    depth: number;
    tool?: string;
  };
  // The tool that failed or hit a bug.
  const tool = error instanceof ToolFailure || error instanceof ToolBug ? error.tool : undefined;
  if (tool !== undefined) body.tool = tool;
  record(runtime, cycle, 'error', body);
  cycle.failure = { severity, message };
  delete cycle.followUp;
  if (signal.type !== 'error' && signal.depth <= retryDepth) {
    cycle.followUp = { type: 'error', depth: signal.depth + 1, meta: signal.meta, at: runtime.now(), message, severity };
  }
  return cycle;
}
