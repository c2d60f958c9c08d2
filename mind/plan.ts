/**
 * A plan's data (seed 002): ordered tool steps with their statuses, the plan's
 * status, attempt, strategy and meta-strategy, and the changes the planner
 * reports for `plan` events. The planner (planner.ts) owns the lifecycle.
 */
import { z } from 'zod';

export const StepStatus = z.enum(['Pending', 'Active', 'Completed', 'Failed', 'Skipped']);
export type StepStatus = z.infer<typeof StepStatus>;
export const PlanStatus = z.enum(['Active', 'Completed', 'Failed', 'Superseded']);
export type PlanStatus = z.infer<typeof PlanStatus>;
export const MetaStrategy = z.enum(['explore-first', 'reason-first']);
export type MetaStrategy = z.infer<typeof MetaStrategy>;

export const PlanStep = z.object({
  index: z.number().int().nonnegative(),
  tool: z.string(),
  input: z.unknown(),
  rationale: z.string(),
  status: StepStatus,
});
export type PlanStep = z.infer<typeof PlanStep>;

export const Plan = z.object({
  id: z.string(),
  goalId: z.string(),
  steps: z.array(PlanStep),
  status: PlanStatus,
  attempt: z.number().int().nonnegative(),
  /** The strategy pattern the goal matched (Knowledge, Reasoning, …). */
  strategy: z.enum(['Knowledge', 'Reasoning', 'Creation', 'External', 'Similarity']),
  order: MetaStrategy,
  createdCycle: z.number().int().nonnegative(),
  /** Decisions that chose another tool than the active step's. */
  departures: z.number().int().nonnegative(),
});
export type Plan = z.infer<typeof Plan>;

export type PlanChangeKind = 'created' | 'step' | 'left' | 'completed' | 'failed' | 'superseded';

/** A change to a plan, for the `plan` event. */
export interface PlanChange {
  plan: Plan;
  change: PlanChangeKind;
  reason: string;
  /** The step the change is about (step completed, step failed, step left). */
  step?: number;
}

/**
 * A plan as `plan` events and the dashboard's snapshot show it: its steps'
 * tools and statuses, with their rationales when `rationales` (they are fixed
 * when the plan is made, so said once, as it is made), not their inputs.
 */
export function planView(plan: Plan, rationales: boolean) {
  return {
    goalId: plan.goalId,
    planId: plan.id,
    attempt: plan.attempt,
    strategy: plan.strategy,
    order: plan.order,
    status: plan.status,
    steps: plan.steps.map((s) => (rationales ? { index: s.index, tool: s.tool, status: s.status, rationale: s.rationale } : { index: s.index, tool: s.tool, status: s.status })),
    departures: plan.departures,
  };
}
