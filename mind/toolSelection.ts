/**
 * Decide (seed 001): utility scoring of every tool for the goal in focus.
 *
 *   total = base − recency + novelty + episodic + pressure + archetype (+ plan)
 *
 * Base scores come from each tool's scoring rule (core, semantic, adaptive);
 * recency and novelty from the per-goal decision log; episodic when a recalled
 * episode names the tool; pressure for consolidating tools when memory is
 * nearly full; archetype and plan from the mind's adjusters. An impasse (best
 * below 0.15, or the top two within 0.02) is reported with the decision.
 */
import { describeValue } from './describeValue.js';
import type { Mind, ScoreAdjusters } from './mind.js';
import type { Orientation } from './observation.js';
import { semanticSimilarity } from './semanticProfile.js';
import { ToolFailure, type ProposalContext, type ScoringContext, type Tool } from './tool.js';
import { proposeInput } from './toolProposal.js';
import { EPISODIC_BONUS, formatBreakdown, NOVELTY_BONUS, PRESSURE_BONUS, quantisedParts, totalScore, type ScoreParts } from './utility.js';

export interface Candidate {
  tool: Tool;
  parts: ScoreParts;
  score: number;
}

export interface Decision {
  goalId: string;
  tool: string;
  score: number;
  parts: ScoreParts;
  breakdown: string;
  input: unknown;
  alternatives: { tool: string; score: number }[];
  impasse?: string;
  reason: string;
  cycle: number;
}

/** Memory counts as nearly full from this pressure on. */
export const NEARLY_FULL = 0.8;
export const IMPASSE_FLOOR = 0.15;
export const IMPASSE_MARGIN = 0.02;

/** Scores every available tool for the oriented goal, best first. */
export function scoreTools(mind: Mind, orientation: Orientation): Candidate[] {
  const { goal } = orientation;
  const ctx: ScoringContext = { mind, goal, adjacentTriples: orientation.adjacentTriples, pressure: orientation.pressure };
  const recalled = orientation.observation.recalled;
  const recalledTools = recalled.length === 0 ? NO_TOOLS : new Set(recalled.flatMap((episode) => episode.tools));
  const nearlyFull = orientation.pressure >= NEARLY_FULL;
  const candidates: Candidate[] = [];
  for (const tool of mind.tools.list()) {
    const base = baseScore(tool, ctx);
    if (base === null) continue;
    const name = tool.name;
    const parts = quantisedParts(
      base,
      mind.decisions.recencyPenalty(goal.id, name),
      mind.decisions.used(goal.id, name) ? 0 : NOVELTY_BONUS,
      recalledTools.has(name) ? EPISODIC_BONUS : 0,
      tool.consolidates && nearlyFull ? PRESSURE_BONUS : 0,
      adjustment('archetype', mind.adjusters.archetype(goal, tool), tool),
      adjustment('plan', mind.adjusters.plan(goal, tool), tool),
    );
    insertByScore(candidates, { tool, parts, score: totalScore(parts) });
  }
  return candidates;
}

const NO_TOOLS: ReadonlySet<string> = new Set();

/**
 * What an adjuster returned, when it is a number (`archetype`'s is clamped to
 * ±0.07, so it may be infinite; `plan`'s must be finite, or undefined: no
 * plan); else a TypeError naming it, rather than a score of NaN.
 */
function adjustment<K extends keyof ScoreAdjusters>(name: K, value: ReturnType<ScoreAdjusters[K]>, tool: Tool): ReturnType<ScoreAdjusters[K]> {
  if (name === 'plan' ? value === undefined || Number.isFinite(value) : typeof value === 'number' && !Number.isNaN(value)) return value;
  const expected = name === 'plan' ? 'a finite number or undefined' : 'a number';
  throw new TypeError(`mind.adjusters.${name} returned ${describeValue(value)} for tool ${tool.name} (expected ${expected})`);
}

/** Inserts a candidate after every candidate scoring at least as much: a stable best-first order, cheaper than sorting a dozen. */
function insertByScore(candidates: Candidate[], candidate: Candidate): void {
  let at = candidates.length;
  for (; at > 0 && candidates[at - 1]!.score < candidate.score; at--) candidates[at] = candidates[at - 1]!;
  candidates[at] = candidate;
}

/**
 * The base score of a tool, or null when a semantic tool is below its
 * threshold, or a core or adaptive tool's `base` threw or returned something
 * other than a finite number (NaN, a string): the first time, that throws a ToolFailure
 * naming the tool (a transient error), then the tool is left out quietly.
 */
export function baseScore(tool: Tool, ctx: ScoringContext): number | null {
  const scoring = tool.scoring;
  switch (scoring.kind) {
    case 'core': {
      const base = checkedBase(tool, scoring.base, ctx);
      return base === null ? null : clamp01(base);
    }
    case 'adaptive': {
      const base = checkedBase(tool, scoring.base, ctx);
      return base === null ? null : Math.max(scoring.floor, clamp01(base));
    }
    case 'semantic': {
      const similarity = semanticSimilarity(ctx.mind, ctx.goal, tool);
      return similarity >= scoring.threshold ? clamp01(similarity * scoring.multiplier) : null;
    }
  }
}

/** A core or adaptive tool's `base(ctx)`, or null when it throws or returns no finite number (see {@link baseScore}). */
function checkedBase(tool: Tool, base: (ctx: ScoringContext) => number, ctx: ScoringContext): number | null {
  let value: unknown;
  try {
    value = base(ctx);
  } catch (error) {
    return badBase(tool, ctx, `threw ${error instanceof Error ? error.message : String(error)}`);
  }
  return Number.isFinite(value) ? (value as number) : badBase(tool, ctx, `returned ${describeValue(value)}, not a finite number`);
}

function badBase(tool: Tool, ctx: ScoringContext, problem: string): null {
  if (!ctx.mind.tools.noteBadScoring(tool.name)) return null;
  throw new ToolFailure(tool.name, `scoring.base ${problem}: the tool is left out of decisions whenever it does (reported once)`);
}

/**
 * Chooses the best tool, records the choice in the decision log and starts a
 * new cycle. Returns null when no tool is available.
 */
export function decideTool(mind: Mind, orientation: Orientation, toolContext: ProposalContext): Decision | null {
  const candidates = scoreTools(mind, orientation);
  const best = candidates[0];
  if (!best) return null;
  const cycle = mind.nextCycle();
  const { goal } = orientation;
  mind.decisions.record(goal.id, best.tool.name);
  const second = candidates[1];
  let impasse: string | undefined;
  if (best.score < IMPASSE_FLOOR) impasse = `best score ${best.score.toFixed(2)} is below ${IMPASSE_FLOOR}`;
  else if (second && best.score - second.score <= IMPASSE_MARGIN + 1e-9) {
    impasse = `${best.tool.name} and ${second.tool.name} are within ${IMPASSE_MARGIN} (${best.score.toFixed(2)} vs ${second.score.toFixed(2)})`;
  }
  const decision: Decision = {
    goalId: goal.id,
    tool: best.tool.name,
    score: best.score,
    parts: best.parts,
    breakdown: formatBreakdown(best.parts),
    // A propose that throws fails this attempt; the choice is already in the decision log, so the next decision avoids the tool.
    input: proposeInput(best.tool, toolContext),
    alternatives: candidates.slice(1, 4).map((c) => ({ tool: c.tool.name, score: c.score })),
    reason: explain(best),
    cycle,
  };
  if (impasse) decision.impasse = impasse;
  mind.remember({
    content: `decided ${best.tool.name} for ${goal.id} ${decision.breakdown}`,
    symbols: [],
    kind: 'Decision',
    at: toolContext.now(),
    relevance: 0.5,
    goalId: goal.id,
  });
  return decision;
}

function explain(best: Candidate): string {
  const p = best.parts;
  const notes: string[] = [];
  if (p.novelty > 0) notes.push('not yet tried on this goal');
  if (p.recency > 0) notes.push('used recently');
  if (p.episodic > 0) notes.push('worked in a recalled episode');
  if (p.pressure > 0) notes.push('memory nearly full');
  if (p.plan !== undefined && p.plan > 0) notes.push('next step of the plan');
  return `${best.tool.name} scored highest${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.max(0, Math.min(1, x)) : 0;
}
