/**
 * The psyche (seed 001's decide/act): archetypes that bias tool choice and a
 * shadow that vetoes or discourages actions.
 *
 * - Archetypes have weights in [0, 1] (neutral 0.5; a weight that evolves is
 *   kept in [{@link WEIGHT_MIN}, {@link WEIGHT_MAX}]) and favour tools. A tool's archetype bias is the sum over the
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
import type { Goal } from './goals.js';
import type { Mind, MindExtension } from './mind.js';
import { Archetype, checkShadowPattern, psycheOptions, ShadowPattern, type PsycheOptions } from './psycheOptions.js';
import { actionDanger, type Danger, type Tool } from './tool.js';
import { ARCHETYPE_LIMIT } from './utility.js';

export const PsycheState = z.object({
  archetypes: z.array(Archetype).min(1),
  shadow: z.array(ShadowPattern),
  individuation: z.number().min(0).max(1),
  /** Shadow encounters (vetoes) since the last evolution. */
  encounters: z.number().int().nonnegative(),
  dominant: z.string(),
});
export type PsycheState = z.infer<typeof PsycheState>;

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
    let danger: Danger | undefined;
    const lazyText = (): string => (text ??= actionText(input));
    const lazyDanger = (): Danger => (danger ??= actionDanger(tool, input));
    const pattern = this.state.shadow.find((p) => p.kind === 'veto' && this.live(p) && matchesAction(p, tool, goalId, lazyText, lazyDanger));
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

/** Whether a pattern matches a tool (and, for text and danger patterns, an input: without one, the tool's own danger) for a goal. */
export function matches(pattern: ShadowPattern, tool: Tool, goalId: string, input?: unknown): boolean {
  return matchesAction(pattern, tool, goalId, () => actionText(input), () => (input === undefined ? tool.danger : actionDanger(tool, input)));
}

/** {@link matches}, with the action's text and danger found only when a pattern needs them (once per action, by the caller). */
function matchesAction(pattern: ShadowPattern, tool: Tool, goalId: string, text: () => string, danger: () => Danger): boolean {
  if (pattern.goalId !== undefined && pattern.goalId !== goalId) return false;
  if (pattern.tool !== undefined && pattern.tool !== tool.name) return false;
  if (pattern.capability !== undefined && !tool.capabilities.includes(pattern.capability)) return false;
  if (pattern.danger !== undefined && DANGER_ORDER.indexOf(danger()) < DANGER_ORDER.indexOf(pattern.danger)) return false;
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
