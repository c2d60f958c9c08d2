/**
 * decide: scores every tool for the oriented goal with seed 001's utility
 * formula and chooses the best, starting a new cycle. Records a `decision`
 * with the score breakdown, the proposed input and the runners-up.
 *
 *   cycles:    --c--|
 *   decide():  --c--|   (c.decision set; null when no tool is available)
 */
import { map, type OperatorFunction } from 'rxjs';
import { decideTool } from '../mind/toolSelection.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { toolContext } from './toolContext.js';

export function decide(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  return map((cycle) => decideStage(runtime, cycle));
}

/** The function behind {@link decide}. */
export function decideStage(runtime: Runtime, cycle: Cycle): Cycle {
  if (!cycle.orientation) return cycle;
  const decision = decideTool(runtime.mind, cycle.orientation, toolContext(runtime, cycle.orientation.goal));
  cycle.decision = decision;
  if (!decision) return cycle;
  const body = {
    goalId: decision.goalId,
    tool: decision.tool,
    score: decision.score,
    breakdown: decision.breakdown,
    input: decision.input,
    alternatives: decision.alternatives,
    reason: decision.reason,
  } as Parameters<typeof record<'decision'>>[3];
  if (decision.impasse) body.impasse = decision.impasse;
  record(runtime, cycle, 'decision', body);
  return cycle;
}
