/**
 * Test fixtures: a runtime over a fresh mind on a given scheduler, and small
 * tools whose behaviour a test controls.
 */
import { z } from 'zod';
import type { SchedulerLike } from 'rxjs';
import { Mind } from '../../mind/mind.js';
import type { Tool, ToolOutput } from '../../mind/tool.js';
import { builtinTools } from '../../mind/tools/index.js';
import { AgentConfig, type AgentConfigInput } from '../../streams/config.js';
import { createRuntime, type Runtime } from '../../streams/runtime.js';
import { builtinCommands } from '../../streams/commands.js';

export function testRuntime(scheduler: SchedulerLike, config: AgentConfigInput = {}, tools: Tool[] = builtinTools()): Runtime {
  const resolved = AgentConfig.parse({ heartbeatMs: 0, ...config });
  const mind = new Mind({ config: resolved, tools, seed: resolved.seed });
  return createRuntime({ mind, config: resolved, scheduler, commands: builtinCommands() });
}

/** A core tool with a fixed base score whose execution the test supplies. */
export function scriptedTool(name: string, base: number, execute: (input: { n: number }) => ToolOutput | PromiseLike<ToolOutput>): Tool<{ n: number }> {
  return {
    name,
    description: `test tool ${name}`,
    keywords: [name],
    danger: 'safe',
    capabilities: [],
    input: z.object({ n: z.number() }),
    scoring: { kind: 'core', base: () => base },
    propose: ({ goal }) => ({ n: goal.cyclesWorked }),
    execute,
  };
}
