/**
 * The snapshot a late-joining WebSocket client starts from: the goals, the
 * state of working memory, the last decisions (the mind's provenance log),
 * the questions still waiting and the active plans, read from the mind at the
 * moment the client connects.
 */
import { describeValue } from '../mind/describeValue.js';
import { checkNumberOption, wholeNumber } from '../mind/optionCheck.js';
import type { Mind } from '../mind/mind.js';
import { planView } from '../mind/plan.js';
import { Planner } from '../mind/planner.js';
import type { Snapshot } from './wsProtocol.js';

export interface SnapshotOptions {
  /** Most recent working-memory entries included. Default 12. */
  memoryEntries?: number;
  /** Most recent decisions included. Default 20. */
  decisions?: number;
  /** The agent's scheduler time as the snapshot is read, sent as its `at` (the dashboard's clock of the agent); none by default. */
  now?: number;
}

/**
 * Reads a snapshot of `mind` for session `session`. Its goals are the
 * unfinished ones in creation order, then the finished ones in the order they
 * finished, so a client can retire them in the mind's order.
 */
export function agentSnapshot(mind: Mind, session: string, options: SnapshotOptions = {}): Snapshot {
  const memoryEntries = count('memoryEntries', options.memoryEntries, 12);
  const decisions = count('decisions', options.decisions, 20);
  const unfinished = mind.goals.all().filter((goal) => goal.status === 'Active' || goal.status === 'Suspended');
  const goals = [...unfinished, ...mind.goals.finishedInOrder()].map((goal) => {
    const out: Snapshot['goals'][number] = {
      goalId: goal.id,
      description: goal.description,
      criteria: goal.criteria,
      status: goal.status,
      priority: goal.priority,
      childIds: [...goal.childIds],
    };
    if (goal.parentId !== undefined) out.parentId = goal.parentId;
    return out;
  });
  const now = options.now;
  if (now !== undefined && !Number.isFinite(now)) throw new TypeError(`agentSnapshot now: expected the scheduler's time (a finite number), got ${describeValue(now)}`);
  return {
    type: 'snapshot',
    session,
    ...(now === undefined ? {} : { at: now }),
    cycle: mind.cycle,
    paused: mind.paused,
    goals,
    memory: {
      size: mind.memory.size,
      capacity: mind.memory.capacity,
      pressure: mind.memory.pressure,
      recent: mind.memory.recent(memoryEntries).map((e) => ({ kind: e.kind, content: e.content, cycle: e.sourceCycle })),
    },
    decisions: mind.provenance.slice(Math.max(0, mind.provenance.length - decisions)).map((p) => ({
      cycle: p.cycle,
      goalId: p.goalId,
      tool: p.tool,
      score: p.score,
      breakdown: p.breakdown,
      status: p.status,
      progress: p.progress,
    })),
    episodes: mind.episodes.size,
    facts: mind.graph.knowledgeSize,
    questions: mind.questions.all().map((q) => ({ questionId: q.id, goalId: q.goalId, text: q.text, timeoutMs: q.timeoutMs, askedAt: q.askedAt })),
    plans: (Planner.of(mind)?.plans() ?? []).filter((plan) => plan.status === 'Active').map((plan) => planView(plan, true)),
    kept: { finishedGoals: mind.config.finishedGoalsKept, episodes: mind.config.episodesKept },
  };
}

/** A count option, or its default; an error naming it when it is not a whole number ≥ 0 (`slice(-0)` would be the whole log). */
function count(name: keyof SnapshotOptions, value: number | undefined, fallback: number): number {
  checkNumberOption('agentSnapshot', name, value, wholeNumber(0), 'a whole number ≥ 0');
  return value ?? fallback;
}
