/**
 * The context tools run and propose inputs in: the mind, the goal, the mind's
 * configuration and the scheduler's clock.
 */
import type { Goal } from '../mind/goals.js';
import type { ToolContext } from '../mind/tool.js';
import type { Runtime } from '../streams/runtime.js';

export function toolContext(runtime: Runtime, goal: Goal): ToolContext {
  return { mind: runtime.mind, goal, config: runtime.mind.config, now: runtime.now, replaying: runtime.replaying };
}
