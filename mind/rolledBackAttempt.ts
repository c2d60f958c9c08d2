/**
 * A rolled-back attempt still counts. A critical error (a bug in a tool or a
 * stage) rolls the mind back to the signal's checkpoint, which also undoes the
 * cycle count, the decision log and the goal's counters; without this, a tool
 * that always throws a TypeError would be retried forever, never reaching
 * `maxCycles`, the stall threshold or the failure limit.
 *
 * So after the rollback the attempt is re-applied as a failed run of the
 * decided tool: the goal's plan is steered again as the pass steered it
 * before deciding (the decision was made with that plan's bonus, and the
 * failure must reach that plan: its step fails and it backtracks, putting the
 * failing tool last), the cycle is counted again, the choice goes back into
 * the decision log (recency steers the next decision away from the tool), and
 * the goal is evaluated as after a tool failure (its failure count and cycles
 * worked grow: it fails after `MAX_FAILURES` (5) in a row, or stalls and is
 * decomposed). Nothing the failing run changed is kept.
 */
import { evaluateOutcome, type Outcome } from './goalEvaluation.js';
import type { Mind } from './mind.js';
import type { PlanChange } from './plan.js';
import { Planner } from './planner.js';
import type { Decision } from './toolSelection.js';

export interface RolledBackAttempt {
  /** The plan changes of steering the goal's plan again (a plan made anew), for `plan` events before the decision. */
  planChanges: PlanChange[];
  outcome: Outcome;
}

/** Counts the rolled-back attempt of `decision` as a failed tool run with `error`. */
export function countRolledBackAttempt(mind: Mind, decision: Decision, error: string, now: () => number): RolledBackAttempt {
  const goal = mind.goals.get(decision.goalId);
  const planChanges = goal?.status === 'Active' ? (Planner.of(mind)?.steer(goal, now) ?? []) : [];
  mind.nextCycle();
  mind.decisions.record(decision.goalId, decision.tool);
  return { planChanges, outcome: evaluateOutcome(mind, decision, { kind: 'failed', error }, now()) };
}
