/**
 * plan: between orient and decide, makes sure the oriented goal has an active
 * plan whose next step the agent can take (planning one when needed, skipping
 * steps that no longer apply), so decide sees the plan bonus for that step's
 * tool. Records a `plan` event per change. Passes without an orientation go
 * through untouched.
 *
 *   cycles:  --c--|
 *   plan():  --c--|   (c.events gains `plan` events when a plan is made or a step skipped)
 */
import type { OperatorFunction } from 'rxjs';
import { Planner } from '../mind/planner.js';
import type { Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { recordPlanChanges } from './changeEvents.js';
import { stage } from './stage.js';

export function plan(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  const planner = Planner.attach(runtime.mind);
  return stage((cycle) => {
    if (cycle.orientation) recordPlanChanges(runtime, cycle, planner.steer(cycle.orientation.goal, runtime.now));
    return cycle;
  });
}
