/**
 * Records what the mind's rules changed as events on the pass: a `goal` event
 * per goal change, a `plan` event per plan change.
 */
import type { GoalChange } from '../mind/goalEvaluation.js';
import type { PlanChange } from '../mind/plan.js';
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
    const body: EventBody<'plan'> = {
      goalId: plan.goalId,
      planId: plan.id,
      attempt: plan.attempt,
      strategy: plan.strategy,
      order: plan.order,
      status: plan.status,
      change,
      // Rationales are fixed when the plan is made: said once, in `created`, not again with every step.
      steps: plan.steps.map((s) => (change === 'created' ? { index: s.index, tool: s.tool, status: s.status, rationale: s.rationale } : { index: s.index, tool: s.tool, status: s.status })),
      departures: plan.departures,
      reason,
    };
    if (step !== undefined) body.step = step;
    record(runtime, cycle, 'plan', body);
  }
}
