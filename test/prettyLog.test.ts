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
