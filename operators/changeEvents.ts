/**
 * Records what the mind's rules changed as events on the pass: a `goal` event
 * per goal change, a `plan` event per plan change.
 */
import type { GoalChange } from '../mind/goalEvaluation.js';
import { planView, type PlanChange } from '../mind/plan.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { EventBody } from '../streams/events.js';
import type { Runtime } from '../streams/runtime.js';

/** One `goal` event per change (with the parent when the goal has one, and its criteria when it is added). */
export function recordGoalChanges(runtime: Runtime, cycle: Cycle, changes: readonly GoalChange[]): void {
  for (const { goal, change } of changes) {
    // Criteria do not change: said once, as the goal is added, not with every change.
    const criteria = change === 'added' ? { criteria: goal.criteria } : undefined;
    const body: EventBody<'goal'> = { goalId: goal.id, description: goal.description, ...criteria, status: goal.status, priority: goal.priority, change };
    if (goal.parentId) body.parentId = goal.parentId;
    record(runtime, cycle, 'goal', body);
  }
}

/** One `plan` event per change, carrying the plan's steps as they now stand. */
export function recordPlanChanges(runtime: Runtime, cycle: Cycle, changes: readonly PlanChange[]): void {
  for (const { plan, change, reason, step } of changes) {
    // Rationales are fixed when the plan is made: said once, in `created`, not again with every step.
    const { goalId, planId, attempt, strategy, order, status, steps, departures } = planView(plan, change === 'created');
    const body: EventBody<'plan'> = { goalId, planId, attempt, strategy, order, status, change, steps, departures, reason };
    if (step !== undefined) body.step = step;
    record(runtime, cycle, 'plan', body);
  }
}
