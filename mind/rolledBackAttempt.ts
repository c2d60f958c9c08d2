/**
 * A rolled-back attempt still counts. A critical error (a bug in a tool or a
 * stage) rolls the mind back to the signal's checkpoint, which also undoes the
 * cycle count, the decision log and the goal's counters; without this, a tool
 * that always throws a TypeError would be retried forever, never reaching
 * `maxCycles`, the stall threshold or the failure limit.
 *
 * So after the rollback the attempt is re-applied as a failed run of the
 * decided tool: the cycle is counted again, the choice goes back into the
 * decision log (recency steers the next decision away from the tool), and
 * the goal is evaluated as after a tool failure (its failure count and cycles
 * worked grow: it fails after `MAX_FAILURES` (5) in a row, or stalls and is
 * decomposed). Nothing the failing run changed is kept.
 */
import { evaluateOutcome, type Outcome } from './goalEvaluation.js';
import type { Mind } from './mind.js';
import type { Decision } from './toolSelection.js';

/** Counts the rolled-back attempt of `decision` as a failed tool run with `error`; returns its outcome. */
export function countRolledBackAttempt(mind: Mind, decision: Decision, error: string, at: number): Outcome {
  mind.nextCycle();
  mind.decisions.record(decision.goalId, decision.tool);
  return evaluateOutcome(mind, decision, { kind: 'failed', error }, at);
}
