import test from 'ava';
import { from, toArray, VirtualTimeScheduler } from 'rxjs';
import { symbolId } from '../mind/knowledgeGraph.js';
import { isQuestion, sentenceFacts } from '../mind/sentenceFacts.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, factStimulus, goalStimulus } from '../streams/testing.js';

const QUESTIONS = [
  'What is the capital of France',
  'Who is the king of Mars',
  'What is the weather forecast in Paris',
  'Which planet has rings',
  'Is Pluto a dwarf planet',
  'Does Mars have moons',
  'Saturn has rings?',
];

test('a question states no fact; a statement does', (t) => {
  for (const question of QUESTIONS) {
    t.true(isQuestion(question), question);
    t.deepEqual(sentenceFacts(question), [], question);
  }
  // Statements still do, including ones starting with a word that can be an auxiliary.
  for (const statement of ['Pluto is a dwarf planet', 'May is a month', 'Saturn has rings']) t.false(isQuestion(statement), statement);
  t.deepEqual(
    sentenceFacts('Who is the king of Mars? Pluto is a dwarf planet. May is a month. Saturn has rings.').map((f) => [f.subject, f.predicate, f.object]),
    [['Pluto', 'is a', 'dwarf planet'], ['May', 'is a', 'month'], ['Saturn', 'has', 'rings']],
  );
});

for (const question of QUESTIONS.slice(0, 3)) {
  test(`the goal "${question}" is neither stored as a fact nor completed by storing itself`, (t) => {
    const scheduler = new VirtualTimeScheduler();
    const agent = createTestAgent(scheduler, { config: { maxCycles: 4 } });
    let events: AgentEvent[] = [];
    agentEvents(agent, { inputs: [from([goalStimulus(question)])] }).pipe(toArray()).subscribe((all) => (events = all));
    scheduler.flush();
    t.false(events.some((e) => e.kind === 'action' && e.tool === 'kg_mutate' && (e.input as { predicate?: string }).predicate === 'is a'));
    t.false(events.some((e) => e.kind === 'goal' && e.change === 'completed'));
    t.is(agent.mind.graph.query({ predicate: 'is a' }).length, 0);
  });
}

test('a lead-in asking to keep the fact is not part of it: "Remember that Pluto is a dwarf planet" states (Pluto, is a, dwarf planet)', (t) => {
  for (const sentence of ['Remember that Pluto is a dwarf planet', 'Note that Pluto is a dwarf planet', 'Remember: Pluto is a dwarf planet', 'Please keep in mind that Pluto is a dwarf planet']) {
    t.deepEqual(sentenceFacts(sentence).map((f) => [f.subject, f.predicate, f.object, f.sentence]), [['Pluto', 'is a', 'dwarf planet', sentence]], sentence);
  }
  t.deepEqual(sentenceFacts('Remember that whales have fur').map((f) => [f.subject, f.predicate, f.object]), [['whales', 'has', 'fur']]);
  // Only at the start: a subject that merely begins with such a word is kept whole.
  t.deepEqual(sentenceFacts('Notepad is a program').map((f) => f.subject), ['Notepad']);
});

test('the goal "Remember that Pluto is a dwarf planet" stores pluto is_a dwarf_planet and completes', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 4 } });
  let events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus('Remember that Pluto is a dwarf planet')])] }).pipe(toArray()).subscribe((all) => (events = all));
  scheduler.flush();
  t.deepEqual(agent.mind.graph.query({ predicate: 'is_a' }).map((f) => [f.subject, f.object]), [['pluto', 'dwarf_planet']]);
  t.true(events.some((e) => e.kind === 'goal' && e.change === 'completed'));
});

test('"Remember that C++ is a language" states a fact about C++, which the goal stores as c++', (t) => {
  t.deepEqual(
    sentenceFacts('Remember that C++ is a language. C# is a language. F# has closures. .NET is a framework.').map((f) => [f.subject, f.predicate, f.object]),
    [['C++', 'is a', 'language'], ['C#', 'is a', 'language'], ['F#', 'has', 'closures'], ['.NET', 'is a', 'framework']],
  );
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 4 } });
  let events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus('Remember that C++ is a language')])] }).pipe(toArray()).subscribe((all) => (events = all));
  scheduler.flush();
  t.deepEqual(agent.mind.graph.query({ predicate: 'is_a' }).map((f) => [f.subject, f.object]), [['c++', 'language']]);
  t.true(events.some((e) => e.kind === 'goal' && e.change === 'completed'));
});

/** Runs a goal after some facts are known; the goal's actions as `tool: summary (progress)`, the stored is-a facts and the goal's matched terms. */
function rememberAfter(goal: string, known: [string, string, string][], maxCycles = 6) {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles } });
  let events: AgentEvent[] = [];
  const inputs = [...known.map(([s, p, o]) => factStimulus(s, p, o)), goalStimulus(goal)];
  agentEvents(agent, { inputs: [from(inputs)] }).pipe(toArray()).subscribe((all) => (events = all));
  scheduler.flush();
  const stored = agent.mind.goals.all().find((g) => g.description === goal)!;
  return {
    actions: events.filter((e): e is AgentEvent<'action'> => e.kind === 'action').map((e) => `${e.tool}: ${e.summary} (${e.progress})`),
    facts: agent.mind.graph.query({ predicate: 'is_a' }).map((f) => `${f.subject} ${f.object}`),
    status: stored.status,
    matched: stored.matched,
  };
}

for (const [name, known, stored] of [
  ['C++', 'C', 'c++'],
  ['C#', 'C', 'c#'],
  ['F#', 'C#', 'f#'],
  ['.NET', 'NET', '.net'],
  // Names too short to be words (C, R, Go) are still needed: the goal states a fact about them.
  ['C', 'C++', 'c'],
  ['R', 'Rust', 'r'],
  ['Go', 'C', 'go'],
] as const) {
  test(`"Remember that ${name} is a language" completes once ${stored} is_a language is stored, not on the known "${known} is a language"`, (t) => {
    const run = rememberAfter(`Remember that ${name} is a language`, [[known, 'is a', 'language']]);
    t.is(run.status, 'Completed');
    t.deepEqual(run.facts, [`${symbolId(known)} language`, `${stored} language`]);
    // The fact about the other name (kg_query finds it) does not complete the goal; storing the stated fact does.
    const completing = run.actions.filter((a) => a.endsWith('(completed)'));
    t.deepEqual(completing, [`kg_mutate: added ${name} is a language (completed)`], run.actions.join('\n'));
    t.deepEqual([...run.matched].sort(), [stored, 'language'].sort());
  });
}

test('"Remember that X-ray is a wave" completes once x-ray is_a wave is stored (the criteria word x-ray meets the symbol x-ray)', (t) => {
  const run = rememberAfter('Remember that X-ray is a wave', []);
  t.deepEqual(run.facts, ['x-ray wave']);
  t.is(run.status, 'Completed', run.actions.join('\n'));
  t.deepEqual([...run.matched].sort(), ['wave', 'x-ray']);
});
