/**
 * The shape of what a tool's `execute` returns (mind/tool.ts's `ToolOutput`),
 * checked before the mind uses it: a tool crosses a boundary, and a field of
 * the wrong kind (`facts` that is not a list of facts, `content` that is not
 * text) would otherwise break goal evaluation with a TypeError that names no
 * tool, roll the mind back and be retried on every pass.
 */
import { z } from 'zod';
import { issueMessage, issuePath } from './issueMessage.js';

const ToolOutputShape = z.object({
  ok: z.boolean(),
  summary: z.string(),
  content: z.string().optional(),
  symbols: z.array(z.string()).optional(),
  added: z.number().int().min(0).optional(),
  facts: z.array(z.object({ subject: z.string(), predicate: z.string(), object: z.string() })).optional(),
  asked: z.object({ questionId: z.string(), text: z.string(), timeoutMs: z.number() }).optional(),
  followUp: z.string().optional(),
});

/** What is wrong with a tool's output (`facts[0].subject: expected string, got 1`), or null when it is a ToolOutput. */
export function toolOutputProblem(output: unknown): string | null {
  const parsed = ToolOutputShape.safeParse(output, { error: issueMessage });
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return issue.path.length ? `${issuePath('', issue.path).replace(/^\./, '')}: ${issue.message}` : issue.message;
}

