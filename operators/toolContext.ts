/**
 * The contexts tools propose inputs in (the mind, the goal, the mind's
 * configuration and the scheduler's clock) and run in (the same, with the
 * run's signals: a {@link ToolRunScope} on the runtime's scheduler).
 */
import type { Goal } from '../mind/goals.js';
import type { ProposalContext, ToolContext } from '../mind/tool.js';
import type { Runtime } from '../streams/runtime.js';
import type { ToolRunScope } from './toolRunScope.js';

export function proposalContext(runtime: Runtime, goal: Goal): ProposalContext {
  return { mind: runtime.mind, goal, config: runtime.mind.config, now: runtime.now, replaying: runtime.replaying };
}

export function toolContext(runtime: Runtime, goal: Goal, scope: ToolRunScope): ToolContext {
  return { ...proposalContext(runtime, goal), signal: scope.signal, timeout: scope.timeout };
}
