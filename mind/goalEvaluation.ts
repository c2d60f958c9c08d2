/**
 * Act's judgement (seed 001): after a tool ran, check the goal's success
 * criteria against the tool's output and the graph's knowledge (never the
 * agent's `agent:*` metadata), mark the goal Completed / Advanced / Failed,
 * detect stalls and decompose stalled goals, and store a provenance record.
 */
import { splitIntoSubgoals, type Goal } from './goals.js';
import type { Mind } from './mind.js';
import { keywords, stem } from './text.js';
import type { ToolOutput } from './tool.js';
import type { Decision } from './toolSelection.js';

export type Progress = 'completed' | 'advanced' | 'failed' | 'none';

/** How a tool run ended, as act saw it. */
export type ToolResult =
  | { kind: 'ok'; output: ToolOutput }
  | { kind: 'failed'; error: string }
  | { kind: 'vetoed'; reason: string };

export interface GoalChange {
  goal: Goal;
  change: 'added' | 'completed' | 'failed' | 'suspended' | 'resumed' | 'decomposed' | 'priority';
}

export interface Outcome {
  status: 'ok' | 'failed' | 'vetoed';
  summary: string;
  progress: Progress;
  /** Criteria terms this action satisfied for the first time. */
  matched: string[];
  changes: GoalChange[];
  output?: ToolOutput;
}

/** Consecutive failures without progress after which a goal fails. */
export const MAX_FAILURES = 5;

export function evaluateOutcome(mind: Mind, decision: Decision, result: ToolResult, at: number): Outcome {
  const changes: GoalChange[] = [];
  const stored = mind.goals.get(decision.goalId);
  const summary = result.kind === 'ok' ? result.output.summary : result.kind === 'failed' ? result.error : `vetoed: ${result.reason}`;
  const status = result.kind;
  if (!stored || stored.status !== 'Active') {
    return { status, summary, progress: 'none', matched: [], changes };
  }
  let goal = mind.goals.update(stored, { cyclesWorked: stored.cyclesWorked + 1 });
  let progress: Progress = 'none';
  let matched: string[] = [];

  if (result.kind === 'ok') {
    matched = newlySatisfied(mind, goal, result.output);
    const advanced = matched.length > 0 || (result.output.added ?? 0) > 0;
    if (advanced) {
      const allMatched = [...goal.matched, ...matched];
      const terms = mind.goalTerms(goal).terms;
      const complete = terms.length > 0 && terms.every((t) => allMatched.includes(t));
      goal = mind.goals.update(goal, {
        matched: allMatched,
        lastProgressCycle: goal.cyclesWorked,
        failures: 0,
        ...(complete ? { status: 'Completed' as const } : {}),
      });
      progress = complete ? 'completed' : 'advanced';
      if (complete) changes.push({ goal, change: 'completed' });
    }
  } else if (result.kind === 'failed') {
    goal = mind.goals.update(goal, { failures: goal.failures + 1 });
    if (goal.failures >= MAX_FAILURES) {
      goal = mind.goals.update(goal, { status: 'Failed' });
      progress = 'failed';
      changes.push({ goal, change: 'failed' });
    }
  }

  mind.remember({
    content: `${decision.tool}: ${summary}`.slice(0, 400),
    symbols: result.kind === 'ok' ? (result.output.symbols ?? []).slice(0, 16) : [],
    kind: 'Action',
    at,
    relevance: progress === 'advanced' || progress === 'completed' ? 0.8 : result.kind === 'ok' ? 0.5 : 0.4,
    goalId: goal.id,
  });

  if (goal.status === 'Active' && mind.goals.isStalled(goal)) changes.push(...decompose(mind, goal));
  if (goal.status === 'Completed' || goal.status === 'Failed') changes.push(...settleParent(mind, goal));

  mind.recordProvenance({
    cycle: decision.cycle,
    at,
    goalId: goal.id,
    tool: decision.tool,
    score: decision.score,
    breakdown: decision.breakdown,
    status,
    progress,
  });
  return { status, summary, progress, matched, changes, ...(result.kind === 'ok' ? { output: result.output } : {}) };
}

/**
 * Criteria terms the output satisfies for the first time: a term is satisfied
 * when the tool's output mentions it, or when a knowledge triple links it to a
 * symbol the output is about.
 */
function newlySatisfied(mind: Mind, goal: Goal, output: ToolOutput): string[] {
  const pending = mind.goalTerms(goal).terms.filter((t) => !goal.matched.includes(t));
  if (pending.length === 0) return [];
  const seen = new Set<string>();
  for (const w of keywords(`${output.summary} ${output.content ?? ''}`)) seen.add(stem(w));
  for (const symbol of output.symbols ?? []) {
    for (const part of symbol.split('_')) seen.add(stem(part));
    for (const t of mind.graph.adjacent(symbol).slice(0, 64)) {
      for (const part of `${t.subject}_${t.predicate}_${t.object}`.split('_')) seen.add(stem(part));
    }
  }
  return pending.filter((t) => seen.has(t));
}

/**
 * Seed 001's decomposition: split the criteria (or description) on commas and
 * "and"; suspend the parent; add active children linked both ways. A stalled
 * goal that cannot be split fails.
 */
export function decompose(mind: Mind, goal: Goal): GoalChange[] {
  const parts = splitIntoSubgoals(goal);
  if (parts.length < 2) {
    return [{ goal: mind.goals.update(goal, { status: 'Failed' }), change: 'failed' }];
  }
  const parent = mind.goals.update(goal, { status: 'Suspended', suspendedFor: 'decomposed' });
  const changes: GoalChange[] = [{ goal: parent, change: 'decomposed' }];
  for (const part of parts) {
    const child = mind.addGoal({
      description: part,
      criteria: part,
      priority: parent.priority,
      stallThreshold: parent.stallThreshold,
      parentId: parent.id,
    });
    mind.graph.add(child.id, 'agent:parent_goal', parent.id);
    mind.graph.add(parent.id, 'agent:child_goal', child.id);
    changes.push({ goal: child, change: 'added' });
  }
  return changes;
}

/** When every child of a decomposed parent has ended, the parent ends too. */
export function settleParent(mind: Mind, child: Goal): GoalChange[] {
  if (!child.parentId) return [];
  const parent = mind.goals.get(child.parentId);
  if (!parent || parent.status !== 'Suspended' || parent.suspendedFor !== 'decomposed') return [];
  const children = parent.childIds.map((id) => mind.goals.get(id)).filter((g): g is Goal => g !== undefined);
  if (children.some((c) => c.status === 'Active' || c.status === 'Suspended')) return [];
  const completed = children.every((c) => c.status === 'Completed');
  const settled = mind.goals.update(parent, { status: completed ? 'Completed' : 'Failed', suspendedFor: undefined });
  return [{ goal: settled, change: completed ? 'completed' : 'failed' }, ...settleParent(mind, settled)];
}
