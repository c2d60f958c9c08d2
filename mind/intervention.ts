/**
 * Interventions (seed 003's `_oscar_handle_loop`): when the agent loops on a
 * goal, that goal is suspended, a high-priority intervention goal
 * "INTERVENTION: break loop — <type> of <tool>" takes the focus, the goal's
 * plan is dropped so it is replanned when it resumes, and a first-person
 * narrative line goes into working memory. When the intervention goal ends
 * (completed or failed), the goals it suspended resume. All changes go through
 * the mind's journaled mutations.
 *
 * The suspended goal records its intervention in `suspendedFor`
 * (`intervention:<goal id>`), so the link survives save and restore.
 */
import { showValue } from './describeValue.js';
import type { Goal } from './goals.js';
import type { LoopInfo } from './loopDetection.js';
import type { Mind } from './mind.js';
import { Plan, type PlanChange, type PlanChangeKind } from './plan.js';

/** Every intervention goal's description starts with this. */
export const INTERVENTION_PREFIX = 'INTERVENTION: break loop — ';

/**
 * The hook for plans. A mind extension that keeps plans implements
 * `dropPlan`: an intervention calls it for the goal it suspends (the
 * extension journals its own change) and the goal is replanned when it
 * resumes. Returns whether a plan was dropped: true, or the plan's change,
 * which the intervention then records as a `plan` event (the built-in
 * planner does), so nobody watching the events sees a dropped plan as active.
 */
export interface PlanDropper {
  dropPlan(goalId: string, reason: string): boolean | PlanChange | undefined;
}

export interface GoalChangeNote {
  goal: Goal;
  change: 'suspended' | 'added' | 'resumed';
}

export interface Intervention {
  /** The intervention goal. */
  goal: Goal;
  /** The goal that was looping, now suspended. */
  suspended: Goal;
  /** "I noticed I was repeating kg_query …" */
  narrative: string;
  planDropped: boolean;
  /** The dropped plans' changes, from the droppers that report them. */
  planChanges: PlanChange[];
  /** Droppers that threw or returned something else than a plan change, each named (the intervention went on). */
  problems: string[];
  /** In order: the suspension, then the new goal. */
  changes: GoalChangeNote[];
}

export interface InterventionOptions {
  /** Priority of the intervention goal (default 255). */
  priority?: number;
  /** Cycles without progress the intervention goal gets (default 3). */
  stallThreshold?: number;
  /** Scheduler time, for the working-memory entry. */
  at: number;
}

/** Whether a goal is an intervention goal. */
export function isInterventionGoal(goal: Pick<Goal, 'description'>): boolean {
  return goal.description.startsWith(INTERVENTION_PREFIX);
}

/**
 * Intervenes on the goal `goalId` for a detected loop. Returns null when the
 * goal is not active (it has just ended, or is already set aside): nothing to
 * break then.
 */
export function startIntervention(mind: Mind, goalId: string, loop: LoopInfo, options: InterventionOptions): Intervention | null {
  const looping = mind.goals.get(goalId);
  if (!looping || looping.status !== 'Active') return null;
  const goal = mind.addGoal({
    description: `${INTERVENTION_PREFIX}${loop.type} of ${loop.actionType}`,
    priority: options.priority ?? 255,
    stallThreshold: options.stallThreshold ?? 3,
  });
  const suspended = mind.goals.update(looping, { status: 'Suspended', suspendedFor: `intervention:${goal.id}` });
  const { planDropped, planChanges, problems } = dropPlans(mind, suspended.id, `loop: ${loop.details}`);
  const narrative = narrate(loop, suspended, planDropped);
  mind.remember({ content: narrative, symbols: [], kind: 'Reflection', at: options.at, relevance: 0.8, goalId: suspended.id });
  return {
    goal,
    suspended,
    narrative,
    planDropped,
    planChanges,
    problems,
    changes: [
      { goal: suspended, change: 'suspended' },
      { goal, change: 'added' },
    ],
  };
}

/** Resumes the goals an ended intervention goal had suspended. */
export function endIntervention(mind: Mind, interventionGoalId: string): GoalChangeNote[] {
  const changes: GoalChangeNote[] = [];
  const reason = `intervention:${interventionGoalId}`;
  for (const goal of mind.goals.suspended()) {
    if (goal.suspendedFor !== reason) continue;
    changes.push({ goal: mind.goals.update(goal, { status: 'Active', suspendedFor: undefined }), change: 'resumed' });
  }
  return changes;
}

/**
 * Asks every extension that keeps plans to drop the goal's plan. One that
 * throws, or returns an object that is no plan change, does not stop the
 * intervention: it is named in `problems`, and the others are still asked.
 */
function dropPlans(mind: Mind, goalId: string, reason: string): Pick<Intervention, 'planDropped' | 'planChanges' | 'problems'> {
  let planDropped = false;
  const planChanges: PlanChange[] = [];
  const problems: string[] = [];
  for (const extension of mind.extensions.values()) {
    const dropper = extension as Partial<PlanDropper>;
    if (typeof dropper.dropPlan !== 'function') continue;
    const failed = `mind extension ${JSON.stringify(extension.name)} failed to drop the plan of goal ${goalId}`;
    let dropped: unknown;
    try {
      dropped = dropper.dropPlan(goalId, reason);
    } catch (error) {
      problems.push(`${failed}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!dropped) continue;
    planDropped = true;
    if (typeof dropped !== 'object') continue;
    if (isPlanChange(dropped)) planChanges.push(dropped);
    else problems.push(`${failed}: dropPlan returned ${showValue(dropped)}, not true, false or a plan change ({ plan, change, reason })`);
  }
  return { planDropped, planChanges, problems };
}

const PLAN_CHANGE_KINDS: readonly string[] = ['created', 'step', 'left', 'completed', 'failed', 'superseded'] satisfies PlanChangeKind[];

/** Whether a value a dropper returned is a plan change the intervention can record. */
function isPlanChange(value: object): value is PlanChange {
  const { plan, change, reason } = value as Partial<PlanChange>;
  return Plan.safeParse(plan).success && typeof change === 'string' && PLAN_CHANGE_KINDS.includes(change) && typeof reason === 'string';
}

/** The first-person line the agent tells about the loop it caught itself in. */
export function narrate(loop: LoopInfo, goal: Pick<Goal, 'description'>, planDropped: boolean): string {
  const on = `while working on "${goal.description}"`;
  let noticed: string;
  switch (loop.type) {
    case 'consecutive_action':
      noticed = `I noticed I was repeating ${loop.actionType} ${loop.count} times in a row ${on}`;
      break;
    case 'high_frequency_action':
      noticed = `I noticed I was repeating ${loop.actionType}: ${loop.count} of my last ${loop.windowSize} actions ${on}`;
      break;
    case 'periodic_sequence':
      noticed = `I noticed I was repeating the same ${loop.period} steps, ${loop.actionType}, over and over ${on}`;
      break;
    case 'no_state_change':
      noticed = `I noticed I was repeating myself: ${loop.count} actions, the last ${loop.actionType}, changed nothing ${on}`;
      break;
  }
  return `${noticed}. I set that goal aside to break the loop${planDropped ? ' and dropped its plan' : ''}; I will come back to it.`;
}
