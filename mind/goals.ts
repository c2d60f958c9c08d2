/**
 * Goals (seed 001): priority 0–255, status, success criteria, stall threshold,
 * progress tracking and decomposition links. All mutations are journaled.
 */
import { z } from 'zod';
import type { Journal } from './journal.js';

export const GoalStatus = z.enum(['Active', 'Suspended', 'Completed', 'Failed']);
export type GoalStatus = z.infer<typeof GoalStatus>;

export const Goal = z.object({
  id: z.string(),
  description: z.string(),
  criteria: z.string(),
  priority: z.number().int().min(0).max(255),
  status: GoalStatus,
  stallThreshold: z.number().int().positive(),
  parentId: z.string().optional(),
  childIds: z.array(z.string()),
  /** Total cycles spent on this goal. */
  cyclesWorked: z.number().int().nonnegative(),
  /** `cyclesWorked` when progress was last made. */
  lastProgressCycle: z.number().int().nonnegative(),
  /** Consecutive tool failures (reset by any successful run). */
  failures: z.number().int().nonnegative(),
  createdCycle: z.number().int().nonnegative(),
  /** Criteria terms already satisfied by the agent's findings. */
  matched: z.array(z.string()),
  /** Why the goal is suspended, when it is (e.g. `decomposed`, `intervention:goal-7`). */
  suspendedFor: z.string().optional(),
});
export type Goal = z.infer<typeof Goal>;

export interface NewGoal {
  id: string;
  description: string;
  criteria?: string;
  priority?: number;
  stallThreshold: number;
  parentId?: string;
  createdCycle: number;
}

/** The agent's goals, in creation order. */
export class GoalBook {
  private readonly goals = new Map<string, Goal>();

  constructor(private readonly journal: Journal) {}

  add(spec: NewGoal): Goal {
    const goal: Goal = {
      id: spec.id,
      description: spec.description,
      criteria: spec.criteria ?? '',
      priority: clampPriority(spec.priority ?? 128),
      status: 'Active',
      stallThreshold: spec.stallThreshold,
      parentId: spec.parentId,
      childIds: [],
      cyclesWorked: 0,
      lastProgressCycle: 0,
      failures: 0,
      createdCycle: spec.createdCycle,
      matched: [],
    };
    if (goal.parentId === undefined) delete goal.parentId;
    this.goals.set(goal.id, goal);
    this.journal.record(() => this.goals.delete(goal.id));
    if (spec.parentId) {
      const parent = this.goals.get(spec.parentId);
      if (parent) this.update(parent, { childIds: [...parent.childIds, goal.id] });
    }
    return goal;
  }

  get(id: string): Goal | undefined {
    return this.goals.get(id);
  }

  all(): Goal[] {
    return [...this.goals.values()];
  }

  /** Active goals, highest priority first, older first among equals. */
  active(): Goal[] {
    const out: Goal[] = [];
    for (const goal of this.goals.values()) if (goal.status === 'Active') out.push(goal);
    return out.sort((a, b) => b.priority - a.priority || a.createdCycle - b.createdCycle);
  }

  /** The goal the next cycle works on: the highest-priority active goal. */
  focus(): Goal | undefined {
    let best: Goal | undefined;
    for (const goal of this.goals.values()) {
      if (goal.status !== 'Active') continue;
      if (!best || goal.priority > best.priority) best = goal;
    }
    return best;
  }

  hasActive(): boolean {
    for (const goal of this.goals.values()) if (goal.status === 'Active') return true;
    return false;
  }

  /** Applies a change to a goal, journaled. Returns the updated goal. */
  update(goal: Goal, change: Partial<Omit<Goal, 'id'>>): Goal {
    const stored = this.goals.get(goal.id);
    if (!stored) throw new Error(`unknown goal ${goal.id}`);
    const before = { ...stored };
    Object.assign(stored, change);
    if (change.priority !== undefined) stored.priority = clampPriority(change.priority);
    for (const key of Object.keys(change) as (keyof Goal)[]) if (stored[key] === undefined) delete stored[key];
    this.journal.record(() => {
      for (const key of Object.keys(stored) as (keyof Goal)[]) delete stored[key];
      Object.assign(stored, before);
    });
    return stored;
  }

  /** Whether the goal has gone `stallThreshold` cycles without progress. */
  isStalled(goal: Goal): boolean {
    return goal.cyclesWorked - goal.lastProgressCycle >= goal.stallThreshold;
  }

  toJSON(): Goal[] {
    return this.all().map((g) => ({ ...g, childIds: [...g.childIds], matched: [...g.matched] }));
  }

  load(goals: Goal[]): void {
    this.goals.clear();
    for (const goal of goals) this.goals.set(goal.id, { ...goal, childIds: [...goal.childIds], matched: [...goal.matched] });
  }
}

/**
 * Splits criteria (or the description when criteria are empty) into sub-goal
 * texts on commas and "and" (seed 001's decomposition rule).
 */
export function splitIntoSubgoals(goal: Pick<Goal, 'criteria' | 'description'>): string[] {
  const text = goal.criteria.trim() || goal.description;
  return text
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
    .map((part) => part.trim().replace(/[.;]+$/, ''))
    .filter((part) => part.length > 0);
}

function clampPriority(priority: number): number {
  return Math.max(0, Math.min(255, Math.round(priority)));
}
