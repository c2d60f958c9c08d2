/**
 * The planning commands: `reflect` reflects at once (seed 002: `agent
 * reflect`, REPL `r`); `plan` makes sure every active goal has a plan and
 * reports them (seed 002: `agent plan`, REPL `p`).
 */
import { Planner } from '../mind/planner.js';
import { recordPlanChanges } from '../operators/changeEvents.js';
import { reflectNow } from '../operators/reflect.js';
import { formatPlans } from './planningText.js';
import type { CommandHandler } from './runtime.js';

export function planningCommands(): [string, CommandHandler][] {
  return [
    ['reflect', (runtime, cycle) => reflectNow(runtime, cycle, 'command')],
    [
      'plan',
      (runtime, cycle) => {
        const planner = Planner.attach(runtime.mind);
        for (const goal of runtime.mind.goals.active()) recordPlanChanges(runtime, cycle, planner.steer(goal, runtime.now));
        return formatPlans(runtime.mind);
      },
    ],
  ];
}
