/**
 * decide: scores every tool for the oriented goal with seed 001's utility
 * formula and chooses the best, starting a new cycle. Records a `decision`
 * with the score breakdown, the proposed input and the runners-up. When no
 * tool applies to the goal at all, the goal fails at once (a `warning` naming
 * it and a `goal` event), rather than the driver ticking on it forever.
 *
 *   cycles:    --c--|
 *   decide():  --c--|   (c.decision set; null when no tool is available)
 */
import type { OperatorFunction } from 'rxjs';
import { failWithoutTools } from '../mind/goalEvaluation.js';
import { decideTool, type Decision } from '../mind/toolSelection.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { EventBody } from '../streams/events.js';
import type { Runtime } from '../streams/runtime.js';
import { recordGoalChanges } from './changeEvents.js';
import { proposalContext } from './toolContext.js';
import { stage } from './stage.js';

export function decide(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  return stage((cycle) => decideStage(runtime, cycle));
}

/** The function behind {@link decide}. */
export function decideStage(runtime: Runtime, cycle: Cycle): Cycle {
  // Decided already (decide twice in a custom cycle): one decision, one cycle, per pass.
  if (!cycle.orientation || cycle.decision !== undefined) return cycle;
  const decision = decideTool(runtime.mind, cycle.orientation, proposalContext(runtime, cycle.orientation.goal));
  cycle.decision = decision;
  if (decision) recordDecision(runtime, cycle, decision);
  else {
    // Failing the goal is this cycle's work: it is counted like any decision.
    runtime.mind.nextCycle();
    const goal = runtime.mind.goals.get(cycle.orientation.goal.id) ?? cycle.orientation.goal;
    const tools = runtime.mind.tools.list().length;
    const why = tools === 0 ? 'no tool is registered' : `none of the ${tools} registered tool(s) scores for it`;
    record(runtime, cycle, 'warning', { message: `no tool applies to goal ${goal.id} "${goal.description}" (${why}): the goal fails` });
    if (goal.status === 'Active') recordGoalChanges(runtime, cycle, failWithoutTools(runtime.mind, goal));
  }
  return cycle;
}

/** Records a `decision` event for the pass's decision (as decided, or as a skill changed its input). */
export function recordDecision(runtime: Runtime, cycle: Cycle, decision: Decision): void {
  const body: EventBody<'decision'> = {
    goalId: decision.goalId,
    tool: decision.tool,
    score: decision.score,
    breakdown: decision.breakdown,
    input: decision.input,
    alternatives: decision.alternatives,
    reason: decision.reason,
  };
  if (decision.impasse) body.impasse = decision.impasse;
  record(runtime, cycle, 'decision', body);
}
