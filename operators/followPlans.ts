/**
 * followPlans: a watcher over finished passes that moves each goal's plan
 * along with what the agent actually did: the active step's tool succeeding
 * completes the step; failing or being vetoed fails the plan and backtracks
 * (a new plan with attempt + 1 and the other meta-strategy, or the goal fails
 * after `maxBacktrackAttempts`); another tool is recorded as leaving the plan.
 * Plans of goals that ended are closed. It runs after recover, so it also
 * sees passes whose tool failed.
 *
 *   passes:          --a--b--|
 *   followPlans(rt): --a--b--|   (a.events / b.events gain `plan` and `goal` events)
 */
import { map, type OperatorFunction } from 'rxjs';
import { Planner, type ActionReport } from '../mind/planner.js';
import type { Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { recordGoalChanges, recordPlanChanges } from './changeEvents.js';

export function followPlans(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  const planner = Planner.attach(runtime.mind);
  return map((cycle) => {
    const report = actionReport(cycle);
    if (report) {
      const progress = planner.follow(report, runtime.now);
      recordPlanChanges(runtime, cycle, progress.plans);
      recordGoalChanges(runtime, cycle, progress.goals);
    }
    recordPlanChanges(runtime, cycle, planner.settle());
    return cycle;
  });
}

/** How the pass's action ended, or null when no action was taken (no decision, or rolled back). */
export function actionReport(cycle: Cycle): ActionReport | null {
  const { decision, outcome } = cycle;
  if (!decision || !outcome) return null;
  // A tool that reported `ok: false` has status `failed` already (evaluateOutcome).
  return { goalId: decision.goalId, tool: decision.tool, result: outcome.status, summary: outcome.summary };
}
