/**
 * The psyche's options (mind/psyche.ts): the shapes of an archetype and of a
 * shadow pattern, and the checks that refuse a bad option in the style of
 * createAgent's other options, naming its full path and what it must be
 * (`psyche.archetypes[2].weight must be a number in [0, 1] (got 2)`).
 */
import { z } from 'zod';
import { describeValue } from './describeValue.js';
import { ARCHETYPE_LIMIT } from './utility.js';

const archetypeFields = {
  name: z.string().min(1),
  weight: z.number().min(0).max(1),
  /** Tools this archetype favours. */
  tools: z.array(z.string()),
};

export const Archetype = z.object(archetypeFields);
export type Archetype = z.infer<typeof Archetype>;

const DangerLevel = z.enum(['safe', 'cautious', 'dangerous', 'critical']);

/** What a shadow pattern matches on: it needs at least one. */
const MATCHERS = ['tool', 'capability', 'danger', 'text', 'goalId'] as const;

const shadowFields = {
  name: z.string().min(1),
  kind: z.enum(['veto', 'bias']),
  tool: z.string().optional(),
  capability: z.string().optional(),
  /** Matches tools at or above this danger level. */
  danger: DangerLevel.optional(),
  /** Matches when the action's input contains this text (case-insensitive, spaces collapsed). */
  text: z.string().min(1).optional(),
  /** Only for this goal. */
  goalId: z.string().optional(),
  /** A bias's score penalty (positive, at most 0.07). Default 0.05. */
  penalty: z.number().positive().max(ARCHETYPE_LIMIT).optional(),
  /** The pattern lapses after this cycle. */
  untilCycle: z.number().int().optional(),
  reason: z.string(),
};

export const ShadowPattern = z
  .object(shadowFields)
  .refine((p) => MATCHERS.some((key) => p[key] !== undefined), `a shadow pattern needs at least one of ${MATCHERS.join(', ')}`);
export type ShadowPattern = z.infer<typeof ShadowPattern>;


export interface PsycheOptions {
  /** At least one archetype; default {@link DEFAULT_ARCHETYPES}. */
  archetypes?: Archetype[];
  /** Shadow patterns (`[]`: none); default {@link DEFAULT_SHADOW}. */
  shadow?: ShadowPattern[];
}

/** What each field of an item must be, as an error says it; `item` is what each element of an array field must be. */
type Expected<K extends string> = Record<K, string | { whole: string; item: string }>;

interface Item<K extends string> {
  /** What the item is (`an archetype`) and its shape (`{ name, weight, tools }`). */
  noun: string;
  shape: string;
  fields: Record<K, z.ZodType>;
  expected: Expected<K>;
}

const ARCHETYPE: Item<keyof typeof archetypeFields> = {
  noun: 'an archetype',
  shape: '{ name, weight, tools }',
  fields: archetypeFields,
  expected: {
    name: 'a non-empty string',
    weight: 'a number in [0, 1]',
    tools: { whole: 'an array of tool names', item: 'a tool name (a string)' },
  },
};

const SHADOW_PATTERN: Item<keyof typeof shadowFields> = {
  noun: 'a shadow pattern',
  shape: `{ name, kind, reason, and at least one of ${MATCHERS.join(', ')} }`,
  fields: shadowFields,
  expected: {
    name: 'a non-empty string',
    kind: '"veto" or "bias"',
    tool: 'a tool name (a string)',
    capability: 'a capability (a string)',
    danger: `one of ${DangerLevel.options.join(', ')}`,
    text: 'a non-empty string',
    goalId: 'a goal id (a string)',
    penalty: `a number in (0, ${ARCHETYPE_LIMIT}]`,
    untilCycle: 'a whole number (a cycle)',
    reason: 'a string',
  },
};

/** An error in the style of createAgent's other options: `path must be expected (got value)`. */
function mustBe(path: string, expected: string, value: unknown, present = true): TypeError {
  return new TypeError(`${path} must be ${expected} (${present ? `got ${describeValue(value)}` : 'missing'})`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Refuses a key `allowed` lacks (a misspelt one, most likely), naming what the object takes. */
function refuseUnknownKeys(path: string, value: Record<string, unknown>, allowed: readonly string[], takes: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new TypeError(`${path} has ${unknown.length === 1 ? 'an unknown key' : 'unknown keys'} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (${takes})`);
  }
}

/** One archetype or shadow pattern checked field by field; a TypeError naming the first bad field's path. */
function checkItem<K extends string>(path: string, value: unknown, item: Item<K>): Record<K, unknown> {
  if (!isRecord(value)) throw mustBe(path, `${item.noun} (${item.shape})`, value);
  const keys = Object.keys(item.fields) as K[];
  refuseUnknownKeys(path, value, keys, `${item.noun} takes ${keys.join(', ')}`);
  const out = {} as Record<K, unknown>;
  for (const key of keys) {
    const parsed = item.fields[key].safeParse(value[key]);
    if (parsed.success) {
      if (parsed.data !== undefined) out[key] = parsed.data;
      continue;
    }
    const expected = item.expected[key];
    const at = parsed.error.issues[0]?.path ?? [];
    if (typeof expected !== 'string' && at.length > 0 && Array.isArray(value[key])) {
      const index = at[0] as number;
      throw mustBe(`${path}.${key}[${index}]`, expected.item, (value[key] as unknown[])[index]);
    }
    throw mustBe(`${path}.${key}`, typeof expected === 'string' ? expected : expected.whole, value[key], key in value);
  }
  return out;
}

/** A shadow pattern checked (see {@link checkItem}), with at least one matcher. */
export function checkShadowPattern(path: string, value: unknown): ShadowPattern {
  const pattern = checkItem(path, value, SHADOW_PATTERN);
  if (!MATCHERS.some((key) => pattern[key] !== undefined)) {
    throw new TypeError(`${path} must set at least one of ${MATCHERS.join(', ')} (without one it would match every action)`);
  }
  return pattern as ShadowPattern;
}

/**
 * The psyche option checked, in the style of createAgent's other options: a
 * TypeError naming the first problem's full path and what it must be
 * (`psyche.archetypes[2].weight must be a number in [0, 1] (got 2)`).
 */
export function psycheOptions(options: unknown): PsycheOptions {
  if (options === undefined) return {};
  if (!isRecord(options)) throw mustBe('psyche', 'an object ({ archetypes?, shadow? })', options);
  refuseUnknownKeys('psyche', options, ['archetypes', 'shadow'], 'the psyche option takes archetypes and shadow');
  const checked: PsycheOptions = {};
  const { archetypes, shadow } = options;
  if (archetypes !== undefined) {
    if (!Array.isArray(archetypes)) throw mustBe('psyche.archetypes', `an array of archetypes (${ARCHETYPE.shape}), or left out for the defaults`, archetypes);
    if (archetypes.length === 0) {
      throw new TypeError('psyche.archetypes must list at least one archetype (the dominant archetype is one of them; leave archetypes out for the defaults)');
    }
    checked.archetypes = archetypes.map((a, i) => checkItem(`psyche.archetypes[${i}]`, a, ARCHETYPE) as Archetype);
  }
  if (shadow !== undefined) {
    if (!Array.isArray(shadow)) {
      throw mustBe('psyche.shadow', `an array of patterns (${SHADOW_PATTERN.shape}), [] for none, or left out for the default one`, shadow);
    }
    checked.shadow = shadow.map((p, i) => checkShadowPattern(`psyche.shadow[${i}]`, p));
  }
  return checked;
}
