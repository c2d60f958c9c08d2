/**
 * The shape of a tool definition (mind/tool.ts's `Tool`), checked with zod
 * when a tool is registered: a tool from a user crosses a boundary. A bad
 * definition is refused at once, naming the tool and what was wrong, e.g.
 * `tool "weather_lookup": danger: expected one of safe, cautious, dangerous,
 * critical, got "extreme"`, instead of breaking every cycle later (keywords
 * that are not a list), being silently never chosen (an unknown scoring
 * kind) or slipping past the critical-danger veto (an unknown danger level),
 * and a misspelt optional key (`consolidate: true`) is refused rather than
 * ignored.
 */
import { z } from 'zod';
import { describeValue } from './describeValue.js';
import { issueMessage } from './issueMessage.js';
import { isObjectLiteral } from './objectLiteral.js';
import type { Tool } from './tool.js';

/** The danger levels, least to most dangerous. */
export const DANGERS = ['safe', 'cautious', 'dangerous', 'critical'] as const;

/** A tool name: snake_case. */
export const TOOL_NAME = /^[a-z][a-z0-9_]*$/;

const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
  error: (issue) => `expected a function, got ${describeValue(issue.input)}`,
});

const unitInterval = z.number().min(0).max(1);

const ToolScoringShape = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('core'), base: fn }),
  z.strictObject({ kind: z.literal('semantic'), threshold: unitInterval, multiplier: z.number().positive() }),
  z.strictObject({ kind: z.literal('adaptive'), floor: unitInterval, base: fn }),
]);

const ToolShape = z.object({
  name: z.string().regex(TOOL_NAME, {
    error: (issue) => `expected snake_case (a lowercase letter, then lowercase letters, digits or _), got ${describeValue(issue.input)}`,
  }),
  description: z.string().regex(/\S/, { error: 'expected a description, got a blank string' }),
  keywords: z.array(z.string().regex(/\S/, { error: 'expected a word, got a blank string' })).min(1),
  danger: z.enum(DANGERS),
  capabilities: z.array(z.string()),
  input: z.custom<z.ZodType>((value) => typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function', {
    error: (issue) => `expected a zod schema (with safeParse), got ${describeValue(issue.input)}`,
  }),
  scoring: ToolScoringShape,
  consolidates: z.boolean().optional(),
  dangerOf: fn.optional(),
  propose: fn,
  execute: fn,
});

/** A tool written as an object literal has no other keys: one that is not a tool's is a misspelling (`consolidate: true`), silently ignored otherwise. */
const PlainToolShape = ToolShape.strict();

/**
 * Checks a tool definition, returning it unchanged; throws an Error naming
 * the tool and every problem (`tool "x": path: what was expected, got what`).
 * An object literal (and a scoring) must not have keys a tool does not take;
 * an instance of a class may keep its own state beside them.
 */
export function validateTool<T extends Tool>(tool: T): T {
  const parsed = (isObjectLiteral(tool) ? PlainToolShape : ToolShape).safeParse(tool, { error: issueMessage });
  if (parsed.success) return tool;
  const problems = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${[...issue.path, key].join('.')}: unknown key (${takenKeys(tool, issue.path.length > 0)})`)
      : [issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message],
  );
  throw new Error(`${toolLabel(tool)}: ${problems.join('; ')}`);
}

/** What a tool, or its scoring of the kind it has, takes: `a semantic scoring takes kind, threshold, multiplier`. */
function takenKeys(tool: unknown, inScoring: boolean): string {
  if (!inScoring) return `a tool takes ${Object.keys(ToolShape.shape).join(', ')}`;
  const kind = (tool as { scoring: { kind: string } }).scoring.kind;
  const scoring = ToolScoringShape.options.find((option) => option.shape.kind.value === kind)!;
  return `a ${kind} scoring takes ${Object.keys(scoring.shape).join(', ')}`;
}

/** How a tool is named in an error: its name, or (without a usable one) its description. */
function toolLabel(tool: unknown): string {
  const { name, description } = (tool ?? {}) as { name?: unknown; description?: unknown };
  if (typeof name === 'string' && name !== '') return `tool ${JSON.stringify(name)}`;
  return typeof description === 'string' ? `tool without a name (${JSON.stringify(description)})` : 'tool without a name';
}
