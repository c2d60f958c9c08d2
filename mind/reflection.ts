/**
 * Reflection (seed 002): every N cycles the agent looks back over the window
 * since its last reflection and adjusts itself.
 *
 * - Goal progress: an active goal that advanced in the window is boosted
 *   (+{@link BOOST_STEP} priority) to keep momentum.
 * - Stagnation: an active goal worked on without progress is demoted
 *   (−{@link DEMOTE_STEP}) and its plan is superseded, so the next cycle plans
 *   afresh with the other meta-strategy; when it has gone `decomposeAfter`
 *   (default 0.5) of its stall threshold without progress and its criteria
 *   split, it is decomposed instead.
 * - Tool effectiveness: success rate per tool that ran in the window.
 * - Memory pressure: at or above `pressureThreshold` (default 0.7) working
 *   memory is consolidated.
 *
 * The psyche (when attached) evolves with the tools' success rates. The
 * window and the counts are a journaled {@link MindExtension}, saved with the mind.
 */
import { z } from 'zod';
import { consolidate } from './consolidation.js';
import { decompose, type GoalChange } from './goalEvaluation.js';
import { splitIntoSubgoals, type Goal } from './goals.js';
import type { Mind, MindExtension } from './mind.js';
import type { PlanChange } from './plan.js';
import { Planner } from './planner.js';
import { Psyche, type Evolution } from './psyche.js';

export const BOOST_STEP = 10;
export const DEMOTE_STEP = 10;

export type Adjustment =
  | { kind: 'boost'; goalId: string; from: number; to: number; reason: string }
  | { kind: 'demote'; goalId: string; from: number; to: number; reason: string }
  | { kind: 'decompose'; goalId: string; children: string[]; reason: string }
  | { kind: 'consolidate'; episodes: number; freed: number; reason: string };

export interface ToolEffectiveness {
  tool: string;
  runs: number;
  ok: number;
  rate: number;
}

export interface ReflectionReport {
  /** 1 for the first reflection of this mind. */
  number: number;
  trigger: 'interval' | 'command';
  /** Cycles (passes with a decision) since the last reflection. */
  cycles: number;
  adjustments: Adjustment[];
  tools: ToolEffectiveness[];
  pressure: number;
  psyche?: Evolution;
  /** Goal changes the adjustments made, for `goal` events. */
  goalChanges: GoalChange[];
  /** Plans the adjustments superseded, for `plan` events. */
  planChanges: PlanChange[];
}

export interface ReflectOptions {
  /** Consolidate at or above this memory pressure. Default 0.7. */
  pressureThreshold?: number;
  /** Decompose a stagnant goal after this fraction of its stall threshold without progress. Default 0.5. */
  decomposeAfter?: number;
}

/** How a finished cycle ended, as reflection counts it. */
export interface CycleReport {
  goalId: string;
  tool: string;
  /** null when the pass failed before act (nothing ran). */
  result: 'ok' | 'failed' | 'vetoed' | null;
}

const Snapshot = z.object({ lastProgressCycle: z.number().int(), matched: z.number().int(), cyclesWorked: z.number().int() });
const ReflectionState = z.object({
  reflections: z.number().int().nonnegative(),
  /** Cycles seen in all (what the interval counts). */
  total: z.number().int().nonnegative(),
  /** Cycles since the last reflection. */
  window: z.number().int().nonnegative(),
  tools: z.record(z.string(), z.object({ runs: z.number().int(), ok: z.number().int() })),
  goals: z.record(z.string(), Snapshot),
});
type ReflectionState = z.infer<typeof ReflectionState>;

export class Reflection implements MindExtension {
  readonly name = 'reflection';
  private state: ReflectionState = { reflections: 0, total: 0, window: 0, tools: {}, goals: {} };

  private constructor(private readonly mind: Mind) {}

  /** The mind's reflection state, attached on first use. */
  static attach(mind: Mind): Reflection {
    return mind.attachExtension('reflection', Reflection, () => new Reflection(mind));
  }

  /** Cycles seen in all. */
  get total(): number {
    return this.state.total;
  }

  /** Reflections so far. */
  get reflections(): number {
    return this.state.reflections;
  }

  /** Counts a finished cycle and the tool run it made; returns the cycles seen in all. */
  note(report: CycleReport): number {
    // Changed in place, every change journaled: this runs every cycle, so it copies nothing.
    const state = this.state;
    const { tools } = state;
    const { tool } = report;
    const prior = tools[tool];
    if (report.result === 'ok' || report.result === 'failed') tools[tool] = { runs: (prior?.runs ?? 0) + 1, ok: (prior?.ok ?? 0) + (report.result === 'ok' ? 1 : 0) };
    state.total++;
    state.window++;
    this.mind.journal.record(() => {
      state.total--;
      state.window--;
      if (prior) tools[tool] = prior;
      else delete tools[tool];
    });
    return state.total;
  }

  /** Reflects now: assesses the window, applies the adjustments, evolves the psyche, opens a new window. */
  reflect(trigger: 'interval' | 'command', at: number, options: ReflectOptions = {}): ReflectionReport {
    const { mind } = this;
    const pressureThreshold = options.pressureThreshold ?? 0.7;
    const decomposeAfter = options.decomposeAfter ?? 0.5;
    const adjustments: Adjustment[] = [];
    const goalChanges: GoalChange[] = [];
    const planChanges: PlanChange[] = [];
    const planner = Planner.of(mind);

    for (const goal of mind.goals.active()) {
      const before = this.state.goals[goal.id] ?? { lastProgressCycle: 0, matched: 0, cyclesWorked: 0 };
      if (goal.cyclesWorked <= before.cyclesWorked) continue;
      const worked = goal.cyclesWorked - before.cyclesWorked;
      if (goal.lastProgressCycle > before.lastProgressCycle || goal.matched.length > before.matched) {
        if (goal.priority >= 255) continue;
        const to = Math.min(255, goal.priority + BOOST_STEP);
        const ofTerms = `${goal.matched.length} of ${mind.goalTerms(goal).terms.length} criteria term(s) matched`;
        const newlyMatched = goal.matched.length - before.matched;
        const reason = newlyMatched > 0 ? `matched ${newlyMatched} more criteria term(s) in ${worked} cycle(s) (${ofTerms})` : `added knowledge in ${worked} cycle(s) (${ofTerms})`;
        adjustments.push({ kind: 'boost', goalId: goal.id, from: goal.priority, to, reason });
        goalChanges.push({ goal: mind.goals.update(goal, { priority: to }), change: 'priority' });
        continue;
      }
      const stalledFor = goal.cyclesWorked - goal.lastProgressCycle;
      if (stalledFor >= Math.ceil(goal.stallThreshold * decomposeAfter) && splitIntoSubgoals(goal).length >= 2) {
        const changes = decompose(mind, goal);
        const children = changes.filter((c) => c.change === 'added').map((c) => c.goal.id);
        adjustments.push({ kind: 'decompose', goalId: goal.id, children, reason: `no progress for ${stalledFor} cycle(s) (stall threshold ${goal.stallThreshold})` });
        goalChanges.push(...changes);
        continue;
      }
      const reason = `no progress in ${worked} cycle(s)`;
      const superseded = planner?.supersede(goal.id, `reflection: ${reason}`);
      if (superseded) planChanges.push(superseded);
      if (goal.priority === 0) continue;
      const to = Math.max(0, goal.priority - DEMOTE_STEP);
      adjustments.push({ kind: 'demote', goalId: goal.id, from: goal.priority, to, reason: superseded ? `${reason}; plan ${superseded.plan.id} superseded` : reason });
      goalChanges.push({ goal: mind.goals.update(goal, { priority: to }), change: 'priority' });
    }

    const pressure = mind.memory.pressure;
    if (pressure >= pressureThreshold) {
      const result = consolidate(mind, at);
      adjustments.push({ kind: 'consolidate', ...result, reason: `memory pressure ${pressure.toFixed(2)} ≥ ${pressureThreshold}` });
    }

    const tools = Object.entries(this.state.tools)
      .map(([tool, s]) => ({ tool, runs: s.runs, ok: s.ok, rate: Math.round((s.ok / s.runs) * 1000) / 1000 }))
      // A fixed locale: under the process's own (LANG=da_DK, say, puts "aa_tool" last) a recording would not replay on another machine.
      .sort((a, b) => a.tool.localeCompare(b.tool, 'en'));
    const psyche = Psyche.of(mind)?.evolve(new Map(tools.map((t) => [t.tool, t.rate])));
    const report: ReflectionReport = {
      number: this.state.reflections + 1,
      trigger,
      cycles: this.state.window,
      adjustments,
      tools,
      pressure: Math.round(pressure * 1000) / 1000,
      goalChanges,
      planChanges,
    };
    if (psyche) report.psyche = psyche;

    mind.remember({
      content: `reflection ${report.number}: ${adjustments.map((a) => ('goalId' in a ? `${a.kind} ${a.goalId}` : a.kind)).join(', ') || 'no adjustments'}`,
      symbols: [],
      kind: 'Reflection',
      at,
      relevance: 0.6,
    });
    const goals: Record<string, z.infer<typeof Snapshot>> = {};
    for (const goal of mind.goals.active()) goals[goal.id] = snapshot(goal);
    this.replace({ reflections: report.number, total: this.state.total, window: 0, tools: {}, goals });
    return report;
  }

  toJSON(): ReflectionState {
    return structuredClone(this.state);
  }

  load(json: unknown): void {
    this.state = ReflectionState.parse(json);
  }

  private replace(next: ReflectionState): void {
    const before = this.state;
    this.state = next;
    this.mind.journal.record(() => {
      this.state = before;
    });
  }
}

function snapshot(goal: Goal): z.infer<typeof Snapshot> {
  return { lastProgressCycle: goal.lastProgressCycle, matched: goal.matched.length, cyclesWorked: goal.cyclesWorked };
}
