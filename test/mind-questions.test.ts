import test from 'ava';
import { Mind } from '../mind/mind.js';
import { builtinTools } from '../mind/tools/index.js';
import type { AgentEvent } from '../streams/events.js';
import { createTestAgent, runMarbles, stimulus } from '../streams/testing.js';

const ASK = { type: 'goal', description: 'Ask the user a question about their favourite colour', criteria: 'favourite colour' };

function run(inputs: string, values: Record<string, unknown>): { events: AgentEvent[]; mind: Mind } {
  const events: AgentEvent[] = [];
  let mind: Mind | undefined;
  runMarbles(
    () => undefined,
    ({ cold }, scheduler) => {
      const agent = createTestAgent(scheduler, { config: { maxCycles: 20, tools: { questionTimeoutMs: 1000 } } });
      mind = agent.mind;
      const stimuli = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, stimulus(v)]));
      const events$ = agent.run({ inputs: [cold(inputs, stimuli)] });
      events$.subscribe((e) => events.push(e));
      events$.connect();
    },
  );
  return { events, mind: mind! };
}

const questions = (events: AgentEvent[]) => events.filter((e): e is AgentEvent<'question'> => e.kind === 'question');

test('user_interact asks without blocking; the answer resumes the goal, adds its facts and completes it', (t) => {
  const { events, mind } = run('a 500ms b 100ms c|', {
    a: ASK,
    b: { type: 'sensor', sensor: 'thermometer', value: 21 },
    c: { type: 'input', text: 'My favourite colour is a deep blue.', replyTo: 'question-1' },
  });
  const [asked, answered, ...rest] = questions(events);
  t.like(asked, { status: 'asked', questionId: 'question-1', goalId: 'goal-1', timeoutMs: 1000, at: 0 });
  t.like(answered, { status: 'answered', questionId: 'question-1', answer: 'My favourite colour is a deep blue.', at: 602 });
  t.deepEqual(rest, []);
  t.true(events.some((e) => e.kind === 'sensor' && e.at === 501), 'other signals went through while the question was pending');
  const goalEvents = events.filter((e): e is AgentEvent<'goal'> => e.kind === 'goal').map((e) => `${e.change}@${e.at}`);
  t.deepEqual(goalEvents, ['added@0', 'suspended@0', 'resumed@602', 'completed@602']);
  t.is(mind.goals.get('goal-1')!.status, 'Completed');
  t.is(mind.graph.query({ subject: 'my_favourite_colour', predicate: 'is_a', object: 'deep_blue' }).length, 1, 'the answer\'s statement became a fact');
  t.is(mind.questions.size, 0);
});

test('an input without replyTo answers the oldest pending question', (t) => {
  const { events } = run('a 10ms c|', { a: ASK, c: { type: 'input', text: 'green is my favourite colour' } });
  t.deepEqual(questions(events).map((q) => q.status), ['asked', 'answered']);
});

test('user_interact times out cleanly: a signal at the deadline expires the question and the goal resumes', (t) => {
  const { events, mind } = run('a 999ms b|', { a: ASK, b: { type: 'sensor', sensor: 'thermometer', value: 21 } });
  const first = questions(events).filter((q) => q.questionId === 'question-1');
  t.deepEqual(first.map((q) => `${q.status}@${q.at}`), ['asked@0', 'expired@1000']);
  t.false(events.some((e) => e.kind === 'error'));
  const resumed = events.find((e): e is AgentEvent<'goal'> => e.kind === 'goal' && e.change === 'resumed')!;
  t.like(resumed, { goalId: 'goal-1', status: 'Active', at: 1000 });
  t.true(mind.memory.all().some((m) => /question question-1 expired unanswered after 1000 ms/.test(m.content)));
  t.false(mind.questions.all().some((q) => q.id === 'question-1'));
});

test('no signal, no expiry: a question only times out when a later signal arrives', (t) => {
  const { events, mind } = run('a 5000ms |', { a: ASK });
  t.deepEqual(questions(events).map((q) => q.status), ['asked']);
  t.is(mind.questions.size, 1);
  t.is(mind.goals.get('goal-1')!.status, 'Suspended');
});

test('a pending question is mind state: journaled, serialised and restored', (t) => {
  const mind = new Mind({ tools: builtinTools() });
  mind.checkpoint();
  mind.questions.ask({ id: 'question-1', goalId: 'goal-1', text: 'why?', askedAt: 5, timeoutMs: 10 });
  const saved = mind.toJSON();
  t.deepEqual(saved.extensions['questions'], [{ id: 'question-1', goalId: 'goal-1', text: 'why?', askedAt: 5, timeoutMs: 10 }]);
  mind.rollback();
  t.is(mind.questions.size, 0);
  const restored = Mind.fromJSON(saved, { tools: builtinTools() });
  t.is(restored.questions.all()[0]!.id, 'question-1');
});

test('questions.ask refuses a question the saved state could not hold, naming the field, and registers nothing', (t) => {
  const mind = new Mind();
  t.throws(() => mind.questions.ask({} as never), { instanceOf: TypeError, message: 'question: id: expected string, got undefined' });
  t.throws(() => mind.questions.ask({ id: 'q-1', goalId: 'goal-1', text: 'Which city?', askedAt: 0, timeoutMs: 0 }), { message: 'question: timeoutMs: expected a number > 0, got 0' });
  t.is(mind.questions.size, 0);
  t.notThrows(() => Mind.fromJSON(JSON.parse(JSON.stringify(mind.toJSON()))));
});
