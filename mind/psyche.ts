/**
 * The psyche (seed 001's decide/act): archetypes that bias tool choice and a
 * shadow that vetoes or discourages actions.
 *
 * - Archetypes have weights in [{@link WEIGHT_MIN}, {@link WEIGHT_MAX}]
 *   (neutral 0.5) and favour tools. A tool's archetype bias is the sum over the
 *   archetypes favouring it of `(weight − 0.5) × 0.14`, minus the shadow's
 *   bias penalties, clamped to ±0.07; it enters decide's score and breakdown
 *   through `mind.adjusters.archetype`.
 * - Shadow patterns match an action by tool, capability, danger level (at or
 *   above) and/or text in its input (case-insensitive). A `veto` pattern blocks
 *   the action before act; a `bias` pattern lowers the tool's score. A bias may
 *   be bound to one goal and expire (how a rejected action is avoided).
 * - On reflection the psyche evolves: each archetype's weight moves by
 *   `0.2 × (mean success rate of its tools − 0.5)`, clamped; shadow encounters
 *   grow the individuation level; the dominant archetype is recomputed.
 *
 * The psyche is a journaled {@link MindExtension}, saved with the mind.
 */
import { z } from 'zod';
import { actionText, normalise } from './actionText.js';
import { describeValue } from './describeValue.js';
import type { Goal } from './goals.js';
import type { Mind, MindExtension } from './mind.js';
import type { Danger, Tool } from './tool.js';
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

export const PsycheState = z.object({
  archetypes: z.array(Archetype).min(1),
  shadow: z.array(ShadowPattern),
  individuation: z.number().min(0).max(1),
  /** Shadow encounters (vetoes) since the last evolution. */
  encounters: z.number().int().nonnegative(),
  dominant: z.string(),
});
export type PsycheState = z.infer<typeof PsycheState>;

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
function checkShadowPattern(path: string, value: unknown): ShadowPattern {
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
function psycheOptions(options: unknown): PsycheOptions {
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

export const WEIGHT_MIN = 0.05;
export const WEIGHT_MAX = 0.95;
/** Bias per unit of weight above or below neutral (a weight of 1 alone gives +0.07). */
export const ARCHETYPE_SCALE = 0.14;
/** How far one reflection moves a weight per unit of success rate above or below 0.5. */
export const EVOLUTION_RATE = 0.2;
export const DEFAULT_BIAS_PENALTY = 0.05;
/** Individuation gained per shadow encounter. */
export const INDIVIDUATION_STEP = 0.01;

/** The default archetypes, all neutral, each with the built-in tools it favours. */
export const DEFAULT_ARCHETYPES: readonly Archetype[] = [
  { name: 'sage', weight: 0.5, tools: ['kg_query', 'reason', 'infer_rules', 'library_search'] },
  { name: 'healer', weight: 0.5, tools: ['memory_recall', 'gap_analysis', 'kg_mutate'] },
  { name: 'explorer', weight: 0.5, tools: ['similarity_search', 'http_fetch', 'content_ingest', 'file_io', 'shell_exec'] },
  { name: 'guardian', weight: 0.5, tools: ['user_interact', 'gap_analysis', 'memory_recall'] },
];

/** The default shadow: destructive commands and critical tools are vetoed, dangerous tools discouraged. */
export const DEFAULT_SHADOW: readonly ShadowPattern[] = [
  { name: 'recursive-delete', kind: 'veto', text: 'rm -rf', reason: 'recursive forced delete' },
  { name: 'recursive-delete', kind: 'veto', text: 'rm -fr', reason: 'recursive forced delete' },
  { name: 'drop-table', kind: 'veto', text: 'drop table', reason: 'destroys a database table' },
  { name: 'drop-database', kind: 'veto', text: 'drop database', reason: 'destroys a database' },
  { name: 'format-disk', kind: 'veto', text: 'mkfs', reason: 'formats a file system' },
  { name: 'critical-tool', kind: 'veto', danger: 'critical', reason: 'critical-danger tools never run unattended' },
  { name: 'dangerous-tool', kind: 'bias', danger: 'dangerous', penalty: 0.03, reason: 'dangerous tools are a last resort' },
];

const DANGER_ORDER: readonly Danger[] = ['safe', 'cautious', 'dangerous', 'critical'];

/** The outcome of evolving: weights before and after, and the dominant archetype. */
export interface Evolution {
  weights: { name: string; before: number; after: number }[];
  dominant: string;
  individuation: number;
}

export class Psyche implements MindExtension {
  readonly name = 'psyche';
  private state: PsycheState;

  private constructor(
    private readonly mind: Mind,
    options: PsycheOptions,
  ) {
    const archetypes = [...(options.archetypes ?? DEFAULT_ARCHETYPES)];
    const shadow = [...(options.shadow ?? DEFAULT_SHADOW)];
    this.state = { archetypes, shadow, individuation: 0, encounters: 0, dominant: dominantOf(archetypes) };
  }

  /**
   * The mind's psyche, attached (and biasing decide) on first use; options
   * apply only then, but are always checked: a bad one throws a TypeError
   * naming its full path and what it must be (`psyche.shadow[0].kind must be
   * "veto" or "bias" (got "ban")`).
   */
  static attach(mind: Mind, options: PsycheOptions = {}): Psyche {
    const checked = psycheOptions(options);
    return mind.attachExtension('psyche', Psyche, () => {
      const psyche = new Psyche(mind, checked);
      mind.adjusters = { ...mind.adjusters, archetype: (goal, tool) => psyche.bias(goal, tool) };
      return psyche;
    });
  }

  /** The mind's psyche, when one is attached. */
  static of(mind: Mind): Psyche | undefined {
    return mind.extension('psyche', Psyche);
  }

  get archetypes(): readonly Archetype[] {
    return this.state.archetypes;
  }

  get shadow(): readonly ShadowPattern[] {
    return this.state.shadow;
  }

  get dominant(): string {
    return this.state.dominant;
  }

  get individuation(): number {
    return this.state.individuation;
  }

  /** The archetype bias of a tool for a goal, shadow bias included, clamped to ±0.07. */
  bias(goal: Goal, tool: Tool): number {
    let bias = 0;
    for (const a of this.state.archetypes) if (a.tools.includes(tool.name)) bias += (a.weight - 0.5) * ARCHETYPE_SCALE;
    for (const p of this.state.shadow) {
      if (p.kind === 'bias' && this.live(p) && matches(p, tool, goal.id)) bias -= p.penalty ?? DEFAULT_BIAS_PENALTY;
    }
    return Math.max(-ARCHETYPE_LIMIT, Math.min(ARCHETYPE_LIMIT, bias));
  }

  /** The veto pattern that blocks this action, if any (counted as a shadow encounter). */
  veto(tool: Tool, input: unknown, goalId: string): ShadowPattern | undefined {
    let text: string | undefined;
    const lazyText = (): string => (text ??= actionText(input));
    const pattern = this.state.shadow.find((p) => p.kind === 'veto' && this.live(p) && matchesAction(p, tool, goalId, lazyText));
    if (pattern) this.replace({ ...this.state, encounters: this.state.encounters + 1 });
    return pattern;
  }

  /** Discourages a tool for one goal for the next `cycles` cycles (after a rejection). */
  avoid(goalId: string, tool: string, reason: string, cycles: number): void {
    const pattern: ShadowPattern = {
      name: `avoid:${tool}`,
      kind: 'bias',
      tool,
      goalId,
      penalty: ARCHETYPE_LIMIT,
      untilCycle: this.mind.cycle + cycles,
      reason,
    };
    this.replace({ ...this.state, shadow: [...this.state.shadow.filter((p) => this.live(p)), pattern] });
  }

  /** Adds a shadow pattern, checked as the `psyche.shadow` option is (a bad one throws, naming the field: `pattern.kind must be …`). */
  addPattern(pattern: ShadowPattern): void {
    this.replace({ ...this.state, shadow: [...this.state.shadow, checkShadowPattern('pattern', pattern)] });
  }

  /**
   * Evolves with the tools' success rates (seed 002): weights move with the
   * mean rate of each archetype's tools that ran, encounters grow
   * individuation, the dominant archetype is recomputed.
   */
  evolve(successRates: ReadonlyMap<string, number>): Evolution {
    const weights: Evolution['weights'] = [];
    const archetypes = this.state.archetypes.map((a) => {
      const rates = a.tools.map((t) => successRates.get(t)).filter((r): r is number => r !== undefined);
      const before = a.weight;
      const after = rates.length === 0 ? before : clampWeight(before + EVOLUTION_RATE * (mean(rates) - 0.5));
      weights.push({ name: a.name, before, after });
      return { ...a, weight: after };
    });
    const individuation = Math.min(1, this.state.individuation + this.state.encounters * INDIVIDUATION_STEP);
    const dominant = dominantOf(archetypes);
    this.replace({ archetypes, shadow: this.state.shadow.filter((p) => this.live(p)), individuation, encounters: 0, dominant });
    return { weights, dominant, individuation };
  }

  toJSON(): PsycheState {
    return structuredClone(this.state);
  }

  load(json: unknown): void {
    this.state = PsycheState.parse(json);
  }

  private live(pattern: ShadowPattern): boolean {
    return pattern.untilCycle === undefined || this.mind.cycle <= pattern.untilCycle;
  }

  private replace(next: PsycheState): void {
    const before = this.state;
    this.state = next;
    this.mind.journal.record(() => {
      this.state = before;
    });
  }
}

/** Whether a pattern matches a tool (and, for text patterns, an input) for a goal. */
export function matches(pattern: ShadowPattern, tool: Tool, goalId: string, input?: unknown): boolean {
  return matchesAction(pattern, tool, goalId, () => actionText(input));
}

/** {@link matches}, with the action's text made only when a text pattern needs it (once per action, by the caller). */
function matchesAction(pattern: ShadowPattern, tool: Tool, goalId: string, text: () => string): boolean {
  if (pattern.goalId !== undefined && pattern.goalId !== goalId) return false;
  if (pattern.tool !== undefined && pattern.tool !== tool.name) return false;
  if (pattern.capability !== undefined && !tool.capabilities.includes(pattern.capability)) return false;
  if (pattern.danger !== undefined && DANGER_ORDER.indexOf(tool.danger) < DANGER_ORDER.indexOf(pattern.danger)) return false;
  if (pattern.text !== undefined && !text().includes(normalisedPattern(pattern.text))) return false;
  return true;
}

/** Pattern texts, normalised once: every action is checked against each of them. */
const normalisedPatterns = new Map<string, string>();

function normalisedPattern(text: string): string {
  let found = normalisedPatterns.get(text);
  if (found === undefined) {
    if (normalisedPatterns.size >= 1024) normalisedPatterns.clear();
    normalisedPatterns.set(text, (found = normalise(text)));
  }
  return found;
}

function dominantOf(archetypes: readonly Archetype[]): string {
  let best = archetypes[0]!;
  for (const a of archetypes) if (a.weight > best.weight) best = a;
  return best.name;
}

function clampWeight(w: number): number {
  return Math.round(Math.max(WEIGHT_MIN, Math.min(WEIGHT_MAX, w)) * 1000) / 1000;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
