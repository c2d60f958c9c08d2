/**
 * Act's judgement (seed 001): after a tool ran, check the goal's success
 * criteria against what the tool established — the knowledge facts it found,
 * derived or added (never the agent's `agent:*` metadata) and the sentences
 * of its content (never its summary, which merely echoes the request) — mark
 * the goal Completed / Advanced / Failed, detect stalls and decompose stalled
 * goals, and store a provenance record.
 *
 * Criteria are read as clauses (split like decomposition splits them: on
 * commas and "and"); a clause is established when a single fact or sentence
 * covers all its terms, so "Find moons of Mars" needs a fact linking moons and
 * Mars, not any mention of either.
 */
import { splitIntoSubgoals, type Goal } from './goals.js';
import type { Mind } from './mind.js';
import { isMetadataPredicate, symbolId } from './knowledgeGraph.js';
import { keywords, sentences, stem, symbolStems } from './text.js';
import type { Fact, ToolOutput } from './tool.js';
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

/** Consecutive tool failures after which a goal fails (a single failure never fails a goal). */
export const MAX_FAILURES = 5;

/** What a tool run (or an answer) established, as goal evaluation reads it. */
export interface Evidence {
  /** Established facts; metadata predicates are ignored. */
  facts: readonly Fact[];
  /** Text whose sentences are checked (tool content, an answer); never a summary. */
  content: string;
  /** Knowledge triples added. */
  added: number;
}

export function evaluateOutcome(mind: Mind, decision: Decision, result: ToolResult, at: number): Outcome {
  const changes: GoalChange[] = [];
  const stored = mind.goals.get(decision.goalId);
  const summary = result.kind === 'ok' ? result.output.summary : result.kind === 'failed' ? result.error : `vetoed: ${result.reason}`;
  const status = result.kind === 'ok' && !result.output.ok ? 'failed' : result.kind;
  if (!stored || stored.status !== 'Active') {
    return { status, summary, progress: 'none', matched: [], changes };
  }
  let goal = mind.goals.update(stored, { cyclesWorked: stored.cyclesWorked + 1 });
  let progress: Progress = 'none';
  let matched: string[] = [];

  if (status === 'ok' && result.kind === 'ok') {
    const output = result.output;
    // Knowledge added counts as progress when the tool reports it as established facts (conclusions,
    // ingested statements); rules mined for later use are not yet progress on this goal.
    const facts = output.facts ?? [];
    const applied = applyEvidence(mind, goal, { facts, content: output.content ?? '', added: facts.length > 0 ? (output.added ?? 0) : 0 });
    ({ goal, progress, matched } = applied);
    changes.push(...applied.changes);
    if (goal.failures > 0) goal = mind.goals.update(goal, { failures: 0 });
    if (output.asked && goal.status === 'Active') {
      goal = mind.goals.update(goal, { status: 'Suspended', suspendedFor: `question:${output.asked.questionId}` });
      changes.push({ goal, change: 'suspended' });
    }
  } else if (status === 'failed') {
    goal = mind.goals.update(goal, { failures: goal.failures + 1 });
    if (goal.failures >= MAX_FAILURES) {
      goal = mind.goals.update(goal, { status: 'Failed' });
      progress = 'failed';
      changes.push({ goal, change: 'failed' });
    }
  }

  mind.remember({
    content: `${decision.tool}: ${summary}`,
    symbols: result.kind === 'ok' ? (result.output.symbols ?? []).slice(0, 16) : [],
    kind: 'Action',
    at,
    relevance: progress === 'advanced' || progress === 'completed' ? 0.8 : status === 'ok' ? 0.5 : 0.4,
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
 * Applies evidence to an active goal: criteria clauses it establishes for the
 * first time mark their terms matched; new clauses or added knowledge are
 * progress; the goal completes when every clause is established.
 */
export function applyEvidence(mind: Mind, goal: Goal, evidence: Evidence): { goal: Goal; progress: Progress; matched: string[]; changes: GoalChange[] } {
  const { clauses } = mind.goalTerms(goal);
  const established = establishedClauses(clauses, goal.matched, evidence);
  const matched = [...new Set(established.flat())].filter((t) => !goal.matched.includes(t));
  if (established.length === 0 && evidence.added <= 0) return { goal, progress: 'none', matched: [], changes: [] };
  const allMatched = [...goal.matched, ...matched];
  const complete = clauses.length > 0 && clauses.every((clause) => clause.every((t) => allMatched.includes(t)));
  const updated = mind.goals.update(goal, {
    matched: allMatched,
    lastProgressCycle: goal.cyclesWorked,
    ...(complete ? { status: 'Completed' as const } : {}),
  });
  return { goal: updated, progress: complete ? 'completed' : 'advanced', matched, changes: complete ? [{ goal: updated, change: 'completed' }] : [] };
}

/**
 * The clauses not yet established that the evidence establishes: a clause is
 * established by one knowledge fact whose subject, predicate and object parts
 * cover all its terms, or by one sentence of the content that contains them all.
 */
export function establishedClauses(clauses: readonly string[][], matched: readonly string[], evidence: Evidence): string[][] {
  const pending = clauses.filter((clause) => !clause.every((t) => matched.includes(t)));
  if (pending.length === 0) return [];
  const covers: Set<string>[] = [];
  for (const fact of evidence.facts) {
    if (isMetadataPredicate(fact.predicate)) continue;
    covers.push(new Set([...symbolStems(symbolId(fact.subject)), ...symbolStems(symbolId(fact.predicate)), ...symbolStems(symbolId(fact.object))]));
  }
  if (evidence.content) for (const sentence of sentences(evidence.content)) covers.push(new Set(keywords(sentence).map(stem)));
  return pending.filter((clause) => covers.some((cover) => clause.every((t) => cover.has(t))));
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

/**
 * A goal no tool applies to (no core tool is registered, and no semantic tool
 * reaches its threshold for the goal's text) fails at once: the agent cannot
 * work on it, and waiting would only spin cycles.
 */
export function failWithoutTools(mind: Mind, goal: Goal): GoalChange[] {
  const failed = mind.goals.update(goal, { status: 'Failed' });
  return [{ goal: failed, change: 'failed' }, ...settleParent(mind, failed)];
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
