/**
 * What happens to user_interact's questions after they are asked, driven by
 * later signals (intake), never by waiting:
 *
 * - an `input` signal answers the question named by its `replyTo`, or the
 *   oldest pending one: the question is removed, facts stated in the answer
 *   ("X is a Y", "X has Y") enter the graph, the goal resumes and the answer is
 *   evaluated against its criteria like a tool's content;
 * - any signal arriving at or after a question's deadline (scheduler time)
 *   expires it: the question is removed and the goal resumes without an answer.
 */
import { applyEvidence, type GoalChange, type Progress } from './goalEvaluation.js';
import type { Goal } from './goals.js';
import type { Mind } from './mind.js';
import type { PendingQuestion } from './questions.js';
import { sentenceFacts } from './sentenceFacts.js';

export interface Answered {
  question: PendingQuestion;
  /** Facts from the answer that were new to the graph. */
  added: number;
  progress: Progress;
  changes: GoalChange[];
}

export interface Expired {
  question: PendingQuestion;
  changes: GoalChange[];
}

/** Answers a pending question with an input's text; undefined when no question is pending (or `replyTo` names none). */
export function answerQuestion(mind: Mind, text: string, replyTo: string | undefined, at: number): Answered | undefined {
  const question = mind.questions.take(replyTo);
  if (!question) return undefined;
  const facts = sentenceFacts(text);
  let added = 0;
  for (const fact of facts) if (mind.graph.add(fact.subject, fact.predicate, fact.object)) added++;
  mind.remember({ content: `answer to ${question.id}: ${text}`, symbols: [], kind: 'Observation', at, relevance: 0.8, goalId: question.goalId });
  const changes: GoalChange[] = [];
  const resumed = resume(mind, question, changes);
  if (!resumed || resumed.status !== 'Active') return { question, added, progress: 'none', changes };
  const applied = applyEvidence(mind, resumed, { facts, content: text, added });
  changes.push(...applied.changes);
  return { question, added, progress: applied.progress, changes };
}

/** Expires the questions whose deadline has passed at `now`, resuming their goals. */
export function expireQuestions(mind: Mind, now: number): Expired[] {
  if (mind.questions.size === 0) return [];
  return mind.questions.expire(now).map((question) => {
    const changes: GoalChange[] = [];
    resume(mind, question, changes);
    mind.remember({
      content: `question ${question.id} expired unanswered after ${question.timeoutMs} ms: ${question.text}`,
      symbols: [],
      kind: 'Observation',
      at: now,
      relevance: 0.4,
      goalId: question.goalId,
    });
    return { question, changes };
  });
}

/** Resumes the goal the question suspended (if it still waits for it). */
function resume(mind: Mind, question: PendingQuestion, changes: GoalChange[]): Goal | undefined {
  const goal = mind.goals.get(question.goalId);
  if (!goal || goal.status !== 'Suspended' || goal.suspendedFor !== `question:${question.id}`) return goal;
  const resumed = mind.goals.update(goal, { status: 'Active', suspendedFor: undefined });
  changes.push({ goal: resumed, change: 'resumed' });
  return resumed;
}
