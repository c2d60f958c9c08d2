import test from 'ava';
import type { AgentEvent } from '../streams/events.js';
import { describe } from '../sinks/prettyLog.js';

const header = { seq: 1, session: 's', cycle: 3, at: 0 };

test('a question line says whether it was asked, answered (with the answer) or expired', (t) => {
  const question = { ...header, kind: 'question', questionId: 'question-1', goalId: 'goal-1', text: 'which moon?', timeoutMs: 60000 } as const;
  t.is(describe(question as AgentEvent), 'question question-1: which moon?');
  t.is(describe({ ...question, status: 'asked' } as AgentEvent), 'question question-1: which moon?');
  t.is(describe({ ...question, status: 'answered', answer: 'Phobos' } as AgentEvent), 'question question-1 answered: which moon? → Phobos');
  t.is(describe({ ...question, status: 'expired' } as AgentEvent), 'question question-1 expired: which moon?');
});

test('text with line breaks or control characters stays on one line and cannot drive the terminal', (t) => {
  const goal = { ...header, kind: 'goal', goalId: 'goal-1', description: 'Find\nmoons\r of\u2028Mars\u001b[2J\u0085\tnow', status: 'Active', priority: 128, change: 'added' } as const;
  t.is(describe(goal as AgentEvent), 'goal goal-1 added → Active p128: Find\\nmoons\\r of\\u2028Mars\\u001b[2J\\u0085\tnow');
});
