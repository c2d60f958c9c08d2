/**
 * The check of what a tool's `execute` returns against `ToolOutput`
 * (mind/tool.ts), before the mind uses it. A tool crosses a boundary: a field
 * of the wrong kind (`facts` whose subject is a number, `content` that is no
 * text) would otherwise break goal evaluation with a TypeError that names no
 * tool, roll the mind back and come back on every pass.
 *
 * It runs on every tool run, so it is written by hand (typeof checks, one
 * loop over `symbols` and one over `facts`) rather than with zod: a well
 * formed output allocates nothing, and a message is built only for the first
 * field that is wrong. Unknown extra fields are allowed; `data` may be
 * anything.
 */
import { describeValue } from './describeValue.js';

/** What a non-object output gets (kept as runTool has always worded it). */
export const NO_TOOL_OUTPUT = 'returned no ToolOutput ({ ok, summary })';

/**
 * What is wrong with a tool's output, naming the first field that is
 * (`facts[0].subject must be a string (got 1)`), or `undefined` when it is a
 * ToolOutput. A value that is not an object at all gets {@link NO_TOOL_OUTPUT}.
 */
export function toolOutputProblem(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return NO_TOOL_OUTPUT;
  const o = output as Record<string, unknown>;
  if (typeof o.ok !== 'boolean') return wrong('ok', 'a boolean', o.ok);
  if (typeof o.summary !== 'string') return wrong('summary', 'a string', o.summary);
  const { content, symbols, added, facts, asked, followUp } = o;
  if (content !== undefined && typeof content !== 'string') return wrong('content', 'a string', content);
  if (symbols !== undefined) {
    if (!Array.isArray(symbols)) return wrong('symbols', 'an array of strings', symbols);
    for (let i = 0; i < symbols.length; i++) {
      if (typeof symbols[i] !== 'string') return wrong(`symbols[${i}]`, 'a string', symbols[i]);
    }
  }
  if (added !== undefined && !(typeof added === 'number' && Number.isFinite(added))) return wrong('added', 'a finite number', added);
  if (facts !== undefined) {
    if (!Array.isArray(facts)) return wrong('facts', 'an array of { subject, predicate, object }', facts);
    for (let i = 0; i < facts.length; i++) {
      const fact: unknown = facts[i];
      if (typeof fact !== 'object' || fact === null || Array.isArray(fact)) return wrong(`facts[${i}]`, 'an object { subject, predicate, object }', fact);
      const f = fact as Record<string, unknown>;
      if (typeof f.subject !== 'string') return wrong(`facts[${i}].subject`, 'a string', f.subject);
      if (typeof f.predicate !== 'string') return wrong(`facts[${i}].predicate`, 'a string', f.predicate);
      if (typeof f.object !== 'string') return wrong(`facts[${i}].object`, 'a string', f.object);
    }
  }
  if (asked !== undefined) {
    if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) return wrong('asked', 'an object { questionId, text, timeoutMs }', asked);
    const a = asked as Record<string, unknown>;
    if (typeof a.questionId !== 'string') return wrong('asked.questionId', 'a string', a.questionId);
    if (typeof a.text !== 'string') return wrong('asked.text', 'a string', a.text);
    if (!(typeof a.timeoutMs === 'number' && Number.isFinite(a.timeoutMs))) return wrong('asked.timeoutMs', 'a finite number', a.timeoutMs);
  }
  if (followUp !== undefined && typeof followUp !== 'string') return wrong('followUp', 'a string', followUp);
  return undefined;
}

function wrong(field: string, expected: string, got: unknown): string {
  return `returned an invalid ToolOutput: ${field} must be ${expected} (got ${describeValue(got)})`;
}
