/**
 * The built-in commands that act on the mind: pause, resume, status and
 * consolidate. `stop` is wired by the agent (it ends the run); extensions add
 * their own (reflect, plan, save) through `AgentOptions.commands`.
 */
import { consolidateNow } from '../operators/consolidate.js';
import { record } from './cycle.js';
import type { CommandHandler } from './runtime.js';

export function builtinCommands(): [string, CommandHandler][] {
  return [
    [
      'pause',
      (runtime, cycle) => {
        if (runtime.mind.paused) return 'already paused';
        runtime.mind.setPaused(true);
        record(runtime, cycle, 'session', { state: 'paused', reason: 'pause command' });
        return 'paused';
      },
    ],
    [
      'resume',
      (runtime, cycle) => {
        if (!runtime.mind.paused) return 'not paused';
        runtime.mind.setPaused(false);
        record(runtime, cycle, 'session', { state: 'running', reason: 'resume command' });
        return 'resumed';
      },
    ],
    [
      'status',
      ({ mind }) => {
        const active = mind.goals.active().length;
        return `cycle ${mind.cycle}; ${active} active goal(s) of ${mind.goals.all().length}; memory ${mind.memory.size}/${mind.memory.capacity}; ${mind.graph.knowledgeSize} facts; ${mind.episodes.size} episode(s)${mind.paused ? '; paused' : ''}`;
      },
    ],
    ['consolidate', (runtime, cycle) => consolidateNow(runtime, cycle, 'consolidate command')],
  ];
}
