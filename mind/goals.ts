/**
 * Goals (seed 001): priority 0–255, status, success criteria, stall threshold,
 * progress tracking and decomposition links. All mutations are journaled.
 */
import { z } from 'zod';
import { describeValue } from './describeValue.js';
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

/** Interned strings made from a goal's wording, by description then criteria. */
const wordings = new Map<string, Map<string, { key: string; text: string }>>();

function wording(goal: Pick<Goal, 'description' | 'criteria'>): { key: string; text: string } {
  let byCriteria = wordings.get(goal.description);
  if (!byCriteria) {
    if (wordings.size >= 4096) wordings.clear();
    wordings.set(goal.description, (byCriteria = new Map()));
  }
  let found = byCriteria.get(goal.criteria);
  if (!found) {
    found = { key: `${goal.description}\u0000${goal.criteria}`, text: `${goal.description} ${goal.criteria}`.trim() };
    byCriteria.set(goal.criteria, found);
  }
  return found;
}

/**
 * A key for a goal's wording (description and criteria), for caches of what
 * depends on the wording only. The same wording always gives the same string
 * object, whose hash the engine keeps: cheap to look up every cycle, unlike a
 * key concatenated afresh.
 */
export function wordingKey(goal: Pick<Goal, 'description' | 'criteria'>): string {
  return wording(goal).key;
}

/** The goal's description and criteria as one text (what recall and search look for), interned like {@link wordingKey}. */
export function goalText(goal: Pick<Goal, 'description' | 'criteria'>): string {
  return wording(goal).text;
}

export interface NewGoal {
  id: string;
  description: string;
  criteria?: string;
  priority?: number;
  stallThreshold: number;
  parentId?: string;
  createdCycle: number;
}

/**
 * The agent's goals, in creation order. Active and suspended goals are also
 * indexed, so the per-cycle questions (focus, active goals, goals waiting on
 * an intervention) cost the number of such goals, not of every goal ever made.
 * Finished goals (completed or failed) are indexed in the order they finished
 * (saved with the mind), so the oldest can be retired (`retireFinished`) and
 * the book stays bounded on a long run.
 */
export class GoalBook {
  private readonly goals = new Map<string, Goal>();
  /** Creation rank of each goal (Map order), for ordering the indexes. */
  private readonly rank = new Map<Goal, number>();
  private nextRank = 0;
  private readonly byStatus: Record<'Active' | 'Suspended', Set<Goal>> = { Active: new Set(), Suspended: new Set() };
  /** Completed and failed goals, in the order they finished. */
  private readonly finished = new Set<Goal>();
  private digestSum = 0;

  constructor(private readonly journal: Journal) {}

  /** Adds an active goal; a spec the saved state could not hold throws a TypeError naming the field (see {@link newGoalProblem}). */
  add(spec: NewGoal): Goal {
    const problem = newGoalProblem(spec);
    if (problem) throw new TypeError(`new goal: ${problem}`);
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
    this.insert(goal);
    this.journal.record(() => this.forget(goal));
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

  /** Active goals, highest priority first, older first among equals; with a `limit`, only the first that many (chosen without sorting them all). */
  active(limit = Infinity): Goal[] {
    const before = (a: Goal, b: Goal): number => b.priority - a.priority || a.createdCycle - b.createdCycle || this.rank.get(a)! - this.rank.get(b)!;
    if (this.byStatus.Active.size <= limit) return [...this.byStatus.Active].sort(before);
    if (limit <= 0) return [];
    const first: Goal[] = [];
    for (const goal of this.byStatus.Active) {
      if (first.length === limit && before(goal, first[limit - 1]!) >= 0) continue;
      if (first.length === limit) first.pop();
      let at = first.length;
      while (at > 0 && before(goal, first[at - 1]!) < 0) at--;
      first.splice(at, 0, goal);
    }
    return first;
  }

  /** How many goals are active. */
  get activeCount(): number {
    return this.byStatus.Active.size;
  }

  /** Suspended goals, in creation order. */
  suspended(): Goal[] {
    return [...this.byStatus.Suspended].sort((a, b) => this.rank.get(a)! - this.rank.get(b)!);
  }

  /** The goal the next cycle works on: the highest-priority active goal (the oldest among equals). */
  focus(): Goal | undefined {
    let best: Goal | undefined;
    for (const goal of this.byStatus.Active) {
      if (!best || goal.priority > best.priority || (goal.priority === best.priority && this.rank.get(goal)! < this.rank.get(best)!)) best = goal;
    }
    return best;
  }

  hasActive(): boolean {
    return this.byStatus.Active.size > 0;
  }

  /**
   * A number that changes when any goal is added or changes status, progress
   * or priority (an order-independent sum of per-goal hashes, kept up to date
   * as goals change): the goal part of `Mind.stateHash`.
   */
  get digest(): number {
    return this.digestSum >>> 0;
  }

  /** Applies a change to a goal, journaled (only the changed keys are kept for undo). Returns the updated goal. */
  update(goal: Goal, change: Partial<Omit<Goal, 'id'>>): Goal {
    const stored = this.goals.get(goal.id);
    if (!stored) throw new Error(`unknown goal ${goal.id}`);
    const keys = Object.keys(change) as (keyof Goal)[];
    const previous = keys.map((key) => (key in stored ? { key, value: stored[key] } : { key }));
    this.reindex(stored, () => {
      for (const key of keys) {
        const value = key === 'priority' && change.priority !== undefined ? clampPriority(change.priority) : change[key as Exclude<keyof Goal, 'id'>];
        if (value === undefined) delete stored[key];
        else (stored as Record<string, unknown>)[key] = value;
      }
    });
    this.journal.record(() =>
      this.reindex(stored, () => {
        for (let i = previous.length - 1; i >= 0; i--) {
          const p = previous[i]!;
          if ('value' in p) (stored as Record<string, unknown>)[p.key] = p.value;
          else delete stored[p.key];
        }
      }),
    );
    return stored;
  }

  /** Completed and failed goals, in the order they finished: the order `retireFinished` retires them in. */
  finishedInOrder(): Goal[] {
    return [...this.finished];
  }

  /** How many goals are completed or failed. */
  get finishedCount(): number {
    return this.finished.size;
  }

  /**
   * Removes the longest-finished goals until at most `keep` finished goals are
   * left, and returns them. A goal whose parent is still in the book and
   * unfinished stays: the parent settles on its children. Not journaled: call
   * it between passes (a rollback never brings a retired goal back).
   */
  retireFinished(keep: number): Goal[] {
    const retired: Goal[] = [];
    for (const goal of this.finished) {
      if (this.finished.size <= keep) break;
      const parent = goal.parentId === undefined ? undefined : this.goals.get(goal.parentId);
      if (parent && !this.finished.has(parent)) continue;
      this.forget(goal);
      retired.push(goal);
    }
    return retired;
  }

  /** Whether the goal has gone `stallThreshold` cycles without progress. */
  isStalled(goal: Goal): boolean {
    return goal.cyclesWorked - goal.lastProgressCycle >= goal.stallThreshold;
  }

  toJSON(): Goal[] {
    return this.all().map((g) => ({ ...g, childIds: [...g.childIds], matched: [...g.matched] }));
  }

  /**
   * Replaces the goals with saved ones. `finishedOrder` (ids, as
   * {@link finishedInOrder} gave them) restores the order finished goals are
   * retired in; finished goals it does not name (a state saved without it)
   * follow in creation order.
   */
  load(goals: Goal[], finishedOrder: readonly string[] = []): void {
    this.goals.clear();
    this.rank.clear();
    this.byStatus.Active.clear();
    this.byStatus.Suspended.clear();
    this.finished.clear();
    this.digestSum = 0;
    for (const goal of goals) this.insert({ ...goal, childIds: [...goal.childIds], matched: [...goal.matched] });
    const loaded = [...this.finished];
    this.finished.clear();
    for (const id of finishedOrder) {
      const goal = this.goals.get(id);
      if (goal && this.withStatus(goal.status) === this.finished) this.finished.add(goal);
    }
    for (const goal of loaded) this.finished.add(goal);
  }

  private insert(goal: Goal): void {
    this.goals.set(goal.id, goal);
    this.rank.set(goal, this.nextRank++);
    this.enter(goal);
  }

  private forget(goal: Goal): void {
    this.leave(goal);
    this.goals.delete(goal.id);
    this.rank.delete(goal);
  }

  /** Runs a mutation of a stored goal, keeping the status indexes and the digest in step. */
  private reindex(goal: Goal, mutate: () => void): void {
    const status = goal.status;
    this.digestSum = (this.digestSum - goalHash(goal)) | 0;
    mutate();
    this.digestSum = (this.digestSum + goalHash(goal)) | 0;
    if (this.withStatus(goal.status) !== this.withStatus(status)) {
      this.withStatus(status).delete(goal);
      this.withStatus(goal.status).add(goal);
    }
  }

  private enter(goal: Goal): void {
    this.withStatus(goal.status).add(goal);
    this.digestSum = (this.digestSum + goalHash(goal)) | 0;
  }

  private leave(goal: Goal): void {
    this.withStatus(goal.status).delete(goal);
    this.digestSum = (this.digestSum - goalHash(goal)) | 0;
  }

  /** The index of goals with this status. */
  private withStatus(status: GoalStatus): Set<Goal> {
    return status === 'Active' || status === 'Suspended' ? this.byStatus[status] : this.finished;
  }
}

/** Each status's number in {@link goalHash}: distinct (the statuses' lengths, hashed before, made Active and Failed one, Suspended and Completed another). */
const STATUS_CODE: Record<GoalStatus, number> = { Active: 1, Suspended: 2, Completed: 3, Failed: 4 };

/** FNV-1a over a goal's id, status, progress cycle and priority. */
function goalHash(goal: Goal): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < goal.id.length; i++) h = Math.imul(h ^ goal.id.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ STATUS_CODE[goal.status], 0x01000193);
  h = Math.imul(h ^ goal.lastProgressCycle, 0x01000193);
  return Math.imul(h ^ goal.priority, 0x01000193);
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

/**
 * What keeps a new goal's spec from making a goal the {@link Goal} schema
 * takes, or undefined. A tool adding a goal through `ctx.mind.addGoal` with
 * an undefined description, say, made a goal that every later snapshot
 * held and no resume could load ("goals.1.description: expected string").
 */
function newGoalProblem(spec: NewGoal): string | undefined {
  if (spec === null || typeof spec !== 'object') return `expected { description, criteria?, priority?, … }, got ${describeValue(spec)}`;
  const { id, description, criteria, priority, stallThreshold, parentId, createdCycle } = spec as unknown as Record<keyof NewGoal, unknown>;
  if (typeof id !== 'string') return `id must be a string (got ${describeValue(id)})`;
  if (typeof description !== 'string') return `description must be a string (got ${describeValue(description)})`;
  if (criteria !== undefined && typeof criteria !== 'string') return `criteria must be a string (got ${describeValue(criteria)})`;
  if (priority !== undefined && !Number.isFinite(priority)) return `priority must be a number from 0 to 255 (got ${describeValue(priority)})`;
  if (!Number.isSafeInteger(stallThreshold) || (stallThreshold as number) < 1) return `stallThreshold must be a whole number ≥ 1 (got ${describeValue(stallThreshold)})`;
  if (parentId !== undefined && typeof parentId !== 'string') return `parentId must be a goal id (got ${describeValue(parentId)})`;
  if (!Number.isSafeInteger(createdCycle) || (createdCycle as number) < 0) return `createdCycle must be a whole number ≥ 0 (got ${describeValue(createdCycle)})`;
  return undefined;
}

function clampPriority(priority: number): number {
  return Math.max(0, Math.min(255, Math.round(priority)));
}
