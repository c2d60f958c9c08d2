/**
 * decide: scores every tool for the oriented goal with seed 001's utility
 * formula and chooses the best, starting a new cycle. Records a `decision`
 * with the score breakdown, the proposed input and the runners-up.
 *
 *   cycles:    --c--|
 *   decide():  --c--|   (c.decision set; null when no tool is available)
 */
import type { OperatorFunction } from 'rxjs';
import { decideTool, type Decision } from '../mind/toolSelection.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { EventBody } from '../streams/events.js';
import type { Runtime } from '../streams/runtime.js';
import { toolContext } from './toolContext.js';
import { stage } from './stage.js';

export function decide(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  return stage((cycle) => decideStage(runtime, cycle));
}

/** The function behind {@link decide}. */
export function decideStage(runtime: Runtime, cycle: Cycle): Cycle {
  if (!cycle.orientation) return cycle;
  const decision = decideTool(runtime.mind, cycle.orientation, toolContext(runtime, cycle.orientation.goal));
  cycle.decision = decision;
  if (decision) recordDecision(runtime, cycle, decision);
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
