/**
 * Runs a decided tool: validates the input against the tool's zod schema
 * first (a missing parameter is a clear tool error, never a crash), then
 * executes it.
 *
 * A {@link ToolFailure} (invalid input, a refused path, a timeout: failures the
 * tool expects and reports) is transient: recover keeps the state. Anything
 * else a tool throws or rejects with is a bug that may have left the mind half
 * changed, so it propagates unchanged and recover treats it as critical and
 * rolls the mind back to the signal's checkpoint.
 */
import type { Decision } from './toolSelection.js';
import { ToolFailure, type ToolContext, type ToolOutput } from './tool.js';

export function runTool(decision: Decision, ctx: ToolContext): ToolOutput | Promise<ToolOutput> {
  const tool = ctx.mind.tools.get(decision.tool);
  if (!tool) throw new ToolFailure(decision.tool, 'no such tool is registered');
  const parsed = tool.input.safeParse(decision.input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'input';
    throw new ToolFailure(tool.name, `invalid input: ${where}: ${issue.message}`);
  }
  const result = tool.execute(parsed.data, ctx);
  return result instanceof Promise ? result.then((output) => checkOutput(tool.name, output)) : checkOutput(tool.name, result);
}

function checkOutput(tool: string, output: ToolOutput): ToolOutput {
  if (!output || typeof output.ok !== 'boolean' || typeof output.summary !== 'string') {
    throw new ToolFailure(tool, 'returned no ToolOutput ({ ok, summary })');
  }
  return output;
}
