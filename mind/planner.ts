/**
 * The planner (seed 002): one plan per goal, an ordered list of tool steps
 * that steers decide through the plan bonus.
 *
 * - The strategy is the pattern most similar to the goal's text (see
 *   strategies.ts). Even attempts explore first (knowledge-gathering tools,
 *   then reasoning tools), odd attempts reason first.
 * - The next step's tool gets {@link PLAN_BONUS} in decide; the agent may still
 *   choose another tool, which is recorded as leaving the plan.
 * - A failed (or vetoed) step fails the plan; a new plan with attempt + 1 and
 *   the other meta-strategy replaces it; when the retries run out (the
 *   first plan and `maxBacktrackAttempts` more failed, default 3) the goal fails.
 *
 * The planner is a journaled {@link MindExtension}: every change is undone by
 * `mind.rollback()` and saved with the mind.
 */
import { z } from 'zod';
import { settleParent, type GoalChange } from './goalEvaluation.js';
import type { Goal } from './goals.js';
import type { Mind, MindExtension } from './mind.js';
import { semanticSimilarity } from './semanticProfile.js';
import { GATHERING, STRATEGY_FAMILIES, StrategyMatcher, type StrategyName } from './strategies.js';
import { Plan, type MetaStrategy, type PlanChange, type PlanStatus, type PlanStep } from './plan.js';
import type { Tool } from './tool.js';
import { proposeInput } from './toolProposal.js';

const PlannerState = z.object({
  plans: z.array(Plan),
  /** Failed plans per goal (the backtracking count). */
  failed: z.record(z.string(), z.number().int().nonnegative()),
});

/** The bonus decide adds to the tool of the active step. */
export const PLAN_BONUS = 0.2;
/** At most this many tools from each phase (gathering, reasoning) make a plan. */
export const STEPS_PER_PHASE = 2;

/** What following the plan through one action produced. */
export interface PlanProgress {
  plans: PlanChange[];
  goals: GoalChange[];
}

/** How an action on a planned goal ended, as the planner needs to know it. */
export interface ActionReport {
  goalId: string;
  tool: string;
  /** ok: the tool ran and reported success; failed: it threw or reported failure; vetoed: it did not run. */
  result: 'ok' | 'failed' | 'vetoed';
  summary: string;
}

export class Planner implements MindExtension {
  readonly name = 'planner';
  private readonly byGoal = new Map<string, Plan>();
  /** Goals whose current plan is active (what `settle` checks each pass). */
  private readonly withActivePlan = new Set<string>();
  private readonly failedPlans = new Map<string, number>();
  private readonly matcher = new StrategyMatcher();

  private constructor(private readonly mind: Mind) {}

  /** The mind's planner, attached (and steering decide) on first use. */
  static attach(mind: Mind): Planner {
    return mind.attachExtension('planner', Planner, () => {
      const planner = new Planner(mind);
      mind.adjusters = { ...mind.adjusters, plan: (goal, tool) => planner.bonus(goal, tool) };
      return planner;
    });
  }

  /** The mind's planner, when one is attached. */
  static of(mind: Mind): Planner | undefined {
    return mind.extension('planner', Planner);
  }

  /** The current plan of a goal (the last one made, whatever its status). */
  current(goalId: string): Plan | undefined {
    return this.byGoal.get(goalId);
  }

  /** Every goal's current plan, in creation order. */
  plans(): Plan[] {
    return [...this.byGoal.values()];
  }

  /** The step that steers decide: the active step of an active plan. */
  activeStep(goalId: string): PlanStep | undefined {
    const plan = this.byGoal.get(goalId);
    return plan?.status === 'Active' ? plan.steps.find((s) => s.status === 'Active') : undefined;
  }

  /** The plan bonus for a tool: {@link PLAN_BONUS} for the active step's tool, undefined for the rest. */
  bonus(goal: Goal, tool: Tool): number | undefined {
    return this.activeStep(goal.id)?.tool === tool.name ? PLAN_BONUS : undefined;
  }

  /**
   * Makes sure an active goal has an active plan whose active step the agent
   * can take now: plans one when there is none (or the last one ended), and
   * skips steps whose tool is gone or does not apply to the goal.
   */
  steer(goal: Goal, now: () => number): PlanChange[] {
    const changes: PlanChange[] = [];
    let plan = this.byGoal.get(goal.id);
    if (!plan || plan.status !== 'Active') {
      const made = this.makePlan(goal, this.nextAttempt(plan), plan ? `replaces ${plan.id} (${plan.status.toLowerCase()})` : 'first plan for the goal', now);
      if (!made) return changes;
      changes.push(made);
      plan = made.plan;
    }
    const step = this.activeStep(goal.id);
    if (step && !this.applies(goal, step.tool)) {
      plan = this.advance(plan, step.index, 'Skipped');
      changes.push({ plan, change: plan.status === 'Completed' ? 'completed' : 'step', step: step.index, reason: `${step.tool} is not available for this goal; step skipped` });
    }
    return changes;
  }

  /**
   * Follows the plan through an action: the active step's tool succeeding
   * completes the step; failing or being vetoed fails the plan and backtracks;
   * another tool is recorded as leaving the plan.
   */
  follow(action: ActionReport, now: () => number): PlanProgress {
    const progress: PlanProgress = { plans: [], goals: [] };
    const plan = this.byGoal.get(action.goalId);
    const step = this.activeStep(action.goalId);
    if (!plan || !step) return progress;
    if (action.tool !== step.tool) {
      const left = this.store({ ...plan, departures: plan.departures + 1 });
      progress.plans.push({ plan: left, change: 'left', step: step.index, reason: `chose ${action.tool} over step ${step.index} (${step.tool})` });
      return progress;
    }
    if (action.result === 'ok') {
      const advanced = this.advance(plan, step.index, 'Completed');
      progress.plans.push({ plan: advanced, change: advanced.status === 'Completed' ? 'completed' : 'step', step: step.index, reason: `${step.tool}: ${action.summary}`.slice(0, 200) });
      return progress;
    }
    return this.backtrack(plan, step, `step ${step.index} (${step.tool}) ${action.result}: ${action.summary}`.slice(0, 200), now);
  }

  /** Ends the plans of goals that are no longer active (completed, failed, suspended). */
  settle(): PlanChange[] {
    const changes: PlanChange[] = [];
    let ending: string[] = [];
    for (const goalId of this.withActivePlan) if (this.mind.goals.get(goalId)?.status !== 'Active') ending.push(goalId);
    // In plan order, as a scan of every plan would find them.
    if (ending.length > 1) ending = [...this.byGoal.keys()].filter((goalId) => ending.includes(goalId));
    for (const goalId of ending) {
      const plan = this.byGoal.get(goalId)!;
      const goal = this.mind.goals.get(goalId);
      const status: PlanStatus = goal?.status === 'Completed' ? 'Completed' : goal?.status === 'Failed' ? 'Failed' : 'Superseded';
      const closed = this.close(plan, status);
      changes.push({ plan: closed, change: status === 'Completed' ? 'completed' : status === 'Failed' ? 'failed' : 'superseded', reason: `goal ${plan.goalId} is ${goal?.status.toLowerCase() ?? 'gone'}` });
    }
    return changes;
  }

  /** The loop intervention's hook (`PlanDropper`): supersedes the goal's active plan; its change, when there was one. */
  dropPlan(goalId: string, reason: string): PlanChange | undefined {
    return this.supersede(goalId, reason);
  }

  /** Drops a goal's active plan (reflection, loop intervention); the next cycle plans afresh with the other meta-strategy. */
  supersede(goalId: string, reason: string): PlanChange | undefined {
    const plan = this.byGoal.get(goalId);
    if (!plan || plan.status !== 'Active') return undefined;
    return { plan: this.close(plan, 'Superseded'), change: 'superseded', reason };
  }

  /**
   * Plans for a goal now (even attempts explore first, odd attempts reason
   * first); the tool of a step that just failed goes last. Null when no tool fits.
   */
  makePlan(goal: Goal, attempt: number, reason: string, now: () => number, failedTool?: string): PlanChange | null {
    const strategy = this.matcher.strategyFor(goal);
    const order: MetaStrategy = attempt % 2 === 0 ? 'explore-first' : 'reason-first';
    const tools = this.mind.tools.list().filter((t) => this.applies(goal, t.name));
    const phase = (gathering: boolean): Tool[] => {
      const families = STRATEGY_FAMILIES[strategy.name].filter((f) => GATHERING.has(f) === gathering);
      return tools
        .filter((t) => families.includes(this.matcher.familyOf(t)))
        .map((t, i) => ({ t, i, rank: families.indexOf(this.matcher.familyOf(t)), relevance: this.matcher.relevance(goal, t) }))
        .sort((a, b) => a.rank - b.rank || b.relevance - a.relevance || a.i - b.i)
        .slice(0, STEPS_PER_PHASE)
        .map((x) => x.t);
    };
    const gather = phase(true);
    const reasonTools = phase(false);
    const phased = order === 'explore-first' ? [...gather, ...reasonTools] : [...reasonTools, ...gather];
    const ordered = [...phased.filter((t) => t.name !== failedTool), ...phased.filter((t) => t.name === failedTool)];
    const steps: PlanStep[] = [];
    for (const tool of ordered) {
      let input: unknown;
      try {
        input = proposeInput(tool, { mind: this.mind, goal, config: this.mind.config, now });
      } catch {
        // A tool that cannot propose an input is left out; decide reports its failure if it is ever chosen.
        continue;
      }
      const index = steps.length;
      steps.push({ index, tool: tool.name, input, rationale: rationale(this.matcher.familyOf(tool), strategy.name, order), status: index === 0 ? 'Active' : 'Pending' });
    }
    if (steps.length === 0) return null;
    const plan = this.store({
      id: this.mind.id('plan'),
      goalId: goal.id,
      steps,
      status: 'Active',
      attempt,
      strategy: strategy.name,
      order,
      createdCycle: this.mind.cycle,
      departures: 0,
    });
    return { plan, change: 'created', reason: `${reason}; ${strategy.name} strategy (similarity ${strategy.similarity.toFixed(3)}), ${order}` };
  }

  /** Drops a retired goal's plan and failure count. */
  forgetGoal(goalId: string): void {
    this.put(goalId, undefined);
    this.failedPlans.delete(goalId);
  }

  toJSON(): z.infer<typeof PlannerState> {
    return { plans: this.plans().map(clonePlan), failed: Object.fromEntries(this.failedPlans) };
  }

  load(json: unknown): void {
    const state = PlannerState.parse(json);
    this.byGoal.clear();
    this.withActivePlan.clear();
    this.failedPlans.clear();
    for (const plan of state.plans) this.put(plan.goalId, clonePlan(plan as Plan));
    for (const [goal, n] of Object.entries(state.failed)) this.failedPlans.set(goal, n);
  }

  private backtrack(plan: Plan, step: PlanStep, reason: string, now: () => number): PlanProgress {
    const failedSteps = plan.steps.map((s): PlanStep => (s.index === step.index ? { ...s, status: 'Failed' } : s));
    const failedPlan = this.store({ ...plan, steps: failedSteps, status: 'Failed' });
    const failures = (this.failedPlans.get(plan.goalId) ?? 0) + 1;
    this.setFailures(plan.goalId, failures);
    const progress: PlanProgress = { plans: [{ plan: failedPlan, change: 'failed', step: step.index, reason }], goals: [] };
    const goal = this.mind.goals.get(plan.goalId);
    if (!goal || goal.status !== 'Active') return progress;
    const limit = this.mind.config.maxBacktrackAttempts;
    if (failures > limit) {
      const failedGoal = this.mind.goals.update(goal, { status: 'Failed' });
      progress.goals.push({ goal: failedGoal, change: 'failed' }, ...settleParent(this.mind, failedGoal));
      progress.plans[0]!.reason += `; ${failures} plan(s) failed, the first and ${limit} retry(ies) (maxBacktrackAttempts ${limit}): the goal fails`;
      return progress;
    }
    const next = this.makePlan(goal, plan.attempt + 1, `backtracking after ${plan.id} failed`, now, step.tool);
    if (next) progress.plans.push(next);
    return progress;
  }

  /** Marks a step and activates the next pending one; completes the plan after its last step. */
  private advance(plan: Plan, index: number, status: 'Completed' | 'Skipped'): Plan {
    let activated = false;
    const steps = plan.steps.map((s): PlanStep => {
      if (s.index === index) return { ...s, status };
      if (!activated && s.index > index && s.status === 'Pending') {
        activated = true;
        return { ...s, status: 'Active' };
      }
      return s;
    });
    return this.store({ ...plan, steps, status: activated ? 'Active' : 'Completed' });
  }

  private close(plan: Plan, status: PlanStatus): Plan {
    const steps = plan.steps.map((s): PlanStep => (s.status === 'Pending' || s.status === 'Active' ? { ...s, status: 'Skipped' } : s));
    return this.store({ ...plan, steps, status });
  }

  /** After a completed plan the attempt stays; after a failed or superseded one the meta-strategy alternates. */
  private nextAttempt(previous: Plan | undefined): number {
    if (!previous) return 0;
    return previous.status === 'Completed' ? previous.attempt : previous.attempt + 1;
  }

  /** Whether decide can choose the tool for the goal (registered, and above its threshold if semantic). */
  private applies(goal: Goal, name: string): boolean {
    const tool = this.mind.tools.get(name);
    if (!tool) return false;
    return tool.scoring.kind !== 'semantic' || semanticSimilarity(this.mind, goal, tool) >= tool.scoring.threshold;
  }

  private store(plan: Plan): Plan {
    const before = this.byGoal.get(plan.goalId);
    this.put(plan.goalId, plan);
    this.mind.journal.record(() => this.put(plan.goalId, before));
    return plan;
  }

  /** Sets (or, with undefined, removes) a goal's current plan, keeping the active-plan index in step. */
  private put(goalId: string, plan: Plan | undefined): void {
    if (plan) this.byGoal.set(goalId, plan);
    else this.byGoal.delete(goalId);
    if (plan?.status === 'Active') this.withActivePlan.add(goalId);
    else this.withActivePlan.delete(goalId);
  }

  private setFailures(goalId: string, n: number): void {
    const before = this.failedPlans.get(goalId);
    this.failedPlans.set(goalId, n);
    this.mind.journal.record(() => {
      if (before === undefined) this.failedPlans.delete(goalId);
      else this.failedPlans.set(goalId, before);
    });
  }
}

function rationale(family: StrategyName, strategy: StrategyName, order: MetaStrategy): string {
  const role = GATHERING.has(family) ? 'gather knowledge' : 'reason over what is known';
  return `${order}: ${role} (${family} tool, ${strategy} strategy)`;
}

function clonePlan(plan: Plan): Plan {
  return { ...plan, steps: plan.steps.map((s) => ({ ...s })) };
}
