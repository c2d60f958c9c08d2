/**
 * Runs a decided tool: validates the input against the tool's zod schema
 * first (a missing parameter is a clear tool error, never a crash), then
 * executes it. Anything the tool throws or rejects with becomes a
 * {@link ToolFailure}.
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
  let result: ToolOutput | Promise<ToolOutput>;
  try {
    result = tool.execute(parsed.data, ctx);
  } catch (error) {
    throw asToolFailure(tool.name, error);
  }
  if (result instanceof Promise) {
    return result.then(
      (output) => checkOutput(tool.name, output),
      (error: unknown) => {
        throw asToolFailure(tool.name, error);
      },
    );
  }
  return checkOutput(tool.name, result);
}

function checkOutput(tool: string, output: ToolOutput): ToolOutput {
  if (!output || typeof output.ok !== 'boolean' || typeof output.summary !== 'string') {
    throw new ToolFailure(tool, 'returned no ToolOutput ({ ok, summary })');
  }
  return output;
}

function asToolFailure(tool: string, error: unknown): ToolFailure {
  if (error instanceof ToolFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolFailure(tool, message, { cause: error });
}
