/**
 * Signal intake: what a signal does to the mind before any cycle runs. A goal
 * is added, a fact enters the graph, user input and sensor readings become
 * working-memory observations (a sensor's reading replaces its previous one,
 * so memory holds each sensor's latest value), a command runs, and every
 * signal from outside is acknowledged with a `perceived` event.
 *
 * Pending questions (user_interact) are settled here, never waited for: every
 * signal first expires the questions whose deadline (scheduler time) has
 * passed, and an `input` answers the question its `replyTo` names, or the
 * oldest one; each emits a `question` event and the goal resumes. An input
 * whose `replyTo` names no pending question is kept as plain input, with a
 * `warning` event naming the id and the pending questions.
 *
 * A cycle's signal is taken in once: intake on a cycle that has been taken in
 * does nothing (a custom cycle with observe twice adds its goal once).
 */
import { answerQuestion, expireQuestions } from '../mind/questionAnswers.js';
import { invokeCommand } from '../streams/commandTable.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { EXTERNAL_SIGNAL_TYPES } from '../streams/signals.js';
import { recordGoalChanges } from './changeEvents.js';

export function intake(runtime: Runtime, cycle: Cycle): void {
  if (takenIn.has(cycle)) return;
  takenIn.add(cycle);
  const { mind } = runtime;
  const signal = cycle.signal;
  const at = runtime.now();
  if (signal.depth === 0 && EXTERNAL.has(signal.type)) {
    const perceived = { source: signal.meta.source ?? 'unknown', signalType: signal.type, depth: signal.depth } as {
      source: string;
      signalType: string;
      depth: number;
      line?: number;
    };
    if (signal.meta.line !== undefined) perceived.line = signal.meta.line;
    record(runtime, cycle, 'perceived', perceived);
  }
  for (const { question, changes } of expireQuestions(mind, at)) {
    record(runtime, cycle, 'question', { questionId: question.id, goalId: question.goalId, text: question.text, timeoutMs: question.timeoutMs, status: 'expired' });
    recordGoalChanges(runtime, cycle, changes);
  }
  switch (signal.type) {
    case 'goal': {
      const goal = mind.addGoal({
        description: signal.description,
        criteria: signal.criteria,
        priority: signal.priority,
        ...(signal.stallThreshold ? { stallThreshold: signal.stallThreshold } : {}),
      });
      recordGoalChanges(runtime, cycle, [{ goal, change: 'added' }]);
      return;
    }
    case 'fact': {
      const added = mind.graph.add(signal.subject, signal.predicate, signal.object, signal.confidence);
      record(runtime, cycle, 'fact', { subject: signal.subject, predicate: signal.predicate, object: signal.object, added });
      return;
    }
    case 'input': {
      mind.remember({ content: `input: ${signal.text}`, symbols: [], kind: 'Observation', at, relevance: 0.6 });
      record(runtime, cycle, 'input', signal.replyTo ? { text: signal.text, replyTo: signal.replyTo } : { text: signal.text });
      const answered = answerQuestion(mind, signal.text, signal.replyTo, at);
      if (answered) {
        const { question } = answered;
        record(runtime, cycle, 'question', {
          questionId: question.id,
          goalId: question.goalId,
          text: question.text,
          timeoutMs: question.timeoutMs,
          status: 'answered',
          answer: signal.text.slice(0, 400),
        });
        recordGoalChanges(runtime, cycle, answered.changes);
      } else if (signal.replyTo !== undefined) {
        const pending = mind.questions.all().map((q) => q.id);
        record(runtime, cycle, 'warning', {
          message: `input replyTo ${JSON.stringify(signal.replyTo)} names no pending question (pending: ${pending.join(', ') || 'none'}); taken as plain input`,
          key: 'replyTo',
        });
      }
      return;
    }
    case 'sensor': {
      mind.remember({
        content: `sensor ${signal.sensor} = ${JSON.stringify(signal.value)}`,
        symbols: [],
        kind: 'Observation',
        at,
        relevance: 0.2,
        key: `sensor:${signal.sensor}`,
      });
      record(runtime, cycle, 'sensor', { sensor: signal.sensor, value: signal.value });
      return;
    }
    case 'command': {
      record(runtime, cycle, 'command', { command: signal.command, result: invokeCommand(runtime, cycle, signal.command) });
      return;
    }
    case 'heartbeat':
      record(runtime, cycle, 'heartbeat', { beat: signal.beat });
      return;
    case 'feedback':
      mind.remember({ content: `feedback: ${signal.reason}`, symbols: [], kind: 'Inference', at, relevance: 0.6, ...(signal.goalId ? { goalId: signal.goalId } : {}) });
      return;
    case 'error':
      // An error reported from outside the cycle (e.g. a sink's write failure) is an event of its own.
      if (signal.depth === 0) {
        record(runtime, cycle, 'error', { severity: signal.severity, message: signal.message, rolledBack: false, signalType: 'error', depth: 0 });
      }
      mind.remember({ content: `error: ${signal.message}`, symbols: [], kind: 'Observation', at, relevance: 0.6 });
      return;
    case 'tick':
    case 'rejected':
      return;
  }
}

const EXTERNAL: ReadonlySet<string> = new Set(EXTERNAL_SIGNAL_TYPES);

/** The cycles whose signal has been taken in (weakly held): a cycle that observes twice takes its signal in once. */
const takenIn = new WeakSet<Cycle>();

/** Whether {@link intake} has taken the cycle's signal in. */
export function isTakenIn(cycle: Cycle): boolean {
  return takenIn.has(cycle);
}
