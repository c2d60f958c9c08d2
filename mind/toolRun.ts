/**
 * Runs a decided tool: validates (its own copy of) the input against the
 * tool's zod schema first (a missing parameter is a clear tool error, never a
 * crash; a schema that throws as it parses is a bug of the tool), then
 * executes it. A result that is a thenable (a Promise or any object with a
 * `then` method) is adopted as a Promise, so act awaits it (and times it out)
 * like any asynchronous tool.
 *
 * A tool that fails — it throws or rejects with an ordinary `Error`, or with a
 * {@link ToolFailure} (invalid input, a refused path, a timeout), or returns
 * (or resolves to) something that is not a ToolOutput (a field of the wrong
 * kind: `facts[0].subject must be a string (got 1)`) — fails
 * transiently: the error becomes a ToolFailure and recover keeps the state.
 * So does a `SyntaxError` (text that does not parse, e.g. `JSON.parse` of a
 * malformed body): seed 004 rolls back on no `:syntax-error`, as on no
 * `:tool-error`.
 * A programming error (TypeError, ReferenceError, RangeError, …:
 * seed 004's "undefined functions, malformed data structures") is a bug that
 * may have left the mind half changed: it propagates as a {@link ToolBug}
 * naming the tool, and recover treats it as critical, rolls the mind back to
 * the signal's checkpoint and counts the attempt against the tool.
 */
import { NOT_PLAIN, plainCopy } from './jsonCopy.js';
import type { PendingQuestions } from './questions.js';
import type { Decision } from './toolSelection.js';
import { isThenable } from './thenable.js';
import { ToolBug, ToolFailure, type Tool, type ToolContext, type ToolOutput } from './tool.js';
import { toolOutputProblem } from './toolOutputCheck.js';

export function runTool(decision: Decision, ctx: ToolContext): ToolOutput | Promise<ToolOutput> {
  const tool = ctx.mind.tools.get(decision.tool);
  if (!tool) throw new ToolFailure(decision.tool, 'no such tool is registered');
  const parsed = parseInput(tool, decision.input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'input';
    throw new ToolFailure(tool.name, `invalid input: ${where}: ${issue.message}`);
  }
  let result: ToolOutput | Promise<ToolOutput>;
  try {
    const returned = tool.execute(parsed.data, ctx);
    // Reading `then` may throw too (a getter, a Proxy): that is the tool's error.
    result = isThenable(returned) ? Promise.resolve(returned) : returned;
  } catch (error) {
    throw classify(tool.name, error);
  }
  if (result instanceof Promise) {
    return result.then(
      (output) => checkOutput(tool.name, output, ctx.mind.questions),
      (error: unknown) => {
        throw classify(tool.name, error);
      },
    );
  }
  return checkOutput(tool.name, result, ctx.mind.questions);
}

/**
 * The decided input as the tool's schema parses it. A schema reports bad
 * input as issues; one that throws instead (an async refine or transform,
 * which a synchronous parse cannot run; a transform that throws) is a bug of
 * the tool, named with what it threw.
 */
function parseInput(tool: Tool, input: unknown): ReturnType<Tool['input']['safeParse']> {
  try {
    return tool.input.safeParse(ownCopy(input));
  } catch (thrown) {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    const why = 'a tool\'s input is parsed synchronously, so its schema may not use an async refine or transform, and reports bad input as issues, not by throwing';
    throw new ToolBug(tool.name, error, `${tool.name}: its input schema threw while parsing the input (${why}): ${error.message}`);
  }
}

/**
 * The tool's own copy of the decided input: the decision's input is recorded
 * in the `decision` and `action` events (and frozen, when proposed), and zod
 * hands an `unknown` or `any` part on as it is, so a tool that changes its
 * input in place would otherwise change those events. An input that cannot
 * be cloned (a function a custom operator put in) is handed on as it is.
 */
function ownCopy(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const plain = plainCopy(input, false);
  if (plain !== NOT_PLAIN) return plain;
  try {
    return structuredClone(input);
  } catch {
    return input;
  }
}

/** Errors that signal a bug rather than a failing tool (not SyntaxError: seed 004 keeps state on a syntax error). */
const PROGRAMMING_ERRORS = [TypeError, ReferenceError, RangeError, EvalError, URIError];

/** A ToolFailure for a failing tool; a ToolBug for a programming error. */
function classify(tool: string, error: unknown): unknown {
  if (error instanceof ToolFailure) return error;
  if (PROGRAMMING_ERRORS.some((kind) => error instanceof kind)) return new ToolBug(tool, error as Error);
  return new ToolFailure(tool, error instanceof Error ? error.message : String(error), { cause: error });
}

/**
 * The output if it is a ToolOutput; else a ToolFailure naming the field that
 * is wrong (mind/toolOutputCheck.ts). An output that throws as it is read (a
 * getter, a Proxy) fails as if the tool had thrown that error. An `asked`
 * question must be pending (the tool registered it): the goal waits for it,
 * and only a pending question is answered or expires.
 */
function checkOutput(tool: string, output: ToolOutput, questions: PendingQuestions): ToolOutput {
  let problem: string | undefined;
  try {
    problem = toolOutputProblem(output);
  } catch (error) {
    throw classify(tool, error);
  }
  if (problem !== undefined) throw new ToolFailure(tool, problem);
  const asked = output.asked?.questionId;
  if (asked !== undefined && !questions.all().some((q) => q.id === asked)) {
    throw new ToolFailure(tool, `returned an invalid ToolOutput: asked.questionId ${JSON.stringify(asked)} names no pending question (register it with ctx.mind.questions.ask before returning it)`);
  }
  return output;
}
