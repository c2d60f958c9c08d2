import test from 'ava';
import { Mind } from '../mind/mind.js';
import { symbolId } from '../mind/knowledgeGraph.js';
import { ToolFailure } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import { runTool } from '../mind/toolRun.js';
import type { Decision } from '../mind/toolSelection.js';
import { perceiveOne } from '../operators/perceive.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, factStimulus, TestScheduler } from '../streams/testing.js';
import { contextFor } from './mindFixtures.js';

const EMPTY = '" normalises to an empty symbol (symbols keep only letters, digits, ":", "_", "-", "+", "#" and a "." that starts a word)';

/** Why perceive rejects a fact line, or 'ok'. */
function factReason(subject: string, predicate: string, object: string): string {
  const mind = new Mind();
  const text = JSON.stringify({ type: 'fact', subject, predicate, object });
  const perception = perceiveOne({ now: () => 0, mind }, { source: 'stdin', line: 1, text });
  return perception.ok ? 'ok' : perception.rejected.reason;
}

test('a fact whose part normalises to nothing is rejected by perceive, naming the part', (t) => {
  t.is(factReason('???', 'is', 'weird'), `invalid fact signal: subject: "???${EMPTY}`);
  t.is(factReason('pluto', '!!!', 'weird'), `invalid fact signal: predicate: "!!!${EMPTY}`);
  t.is(factReason('pluto', 'is', '...'), `invalid fact signal: object: "...${EMPTY}`);
  t.is(factReason('Pluto', 'is a', 'dwarf planet'), 'ok');
});

test('a fact from outside may not use an agent:* predicate, however it is spelled', (t) => {
  for (const predicate of ['agent:explored', 'Agent:Explored', ' agent:child_goal ']) {
    t.is(
      factReason('goal-1', predicate, 'mars'),
      `invalid fact signal: predicate: ${JSON.stringify(predicate.trim())} is reserved: agent:* predicates are the runtime's own bookkeeping`,
    );
  }
  t.is(factReason('goal-1', 'agents', 'mars'), 'ok', 'only the agent: prefix is reserved');
});

test('an agent turns such facts into rejected events and stores none of them', (t) => {
  const events: AgentEvent[] = [];
  const mind = new Mind({ tools: builtinTools() });
  const scheduler = new TestScheduler(() => undefined);
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { mind, config: { maxCycles: 5 } });
    const facts = { a: factStimulus('???', 'is', 'weird'), b: factStimulus('goal-1', 'agent:explored', 'mars'), c: factStimulus('Mars', 'has', 'Phobos') };
    agentEvents(agent, { inputs: [cold('abc|', facts)] }).subscribe((e) => events.push(e));
  });
  const rejected = events.filter((e): e is AgentEvent<'rejected'> => e.kind === 'rejected');
  t.deepEqual(rejected.map((e) => e.reason.split(':').slice(0, 2).join(':')), ['invalid fact signal: subject', 'invalid fact signal: predicate']);
  t.deepEqual(
    events.filter((e): e is AgentEvent<'fact'> => e.kind === 'fact').map((e) => [e.subject, e.added]),
    [['Mars', true]],
  );
  t.deepEqual(mind.graph.query({ predicate: 'agent:explored' }), []);
  t.false(mind.graph.query({}).some((triple) => triple.subject === '' || triple.predicate === '' || triple.object === ''));
});

function runKgMutate(mind: Mind, input: unknown) {
  const goal = mind.addGoal({ description: 'Remember a fact' });
  return Promise.resolve().then(() => runTool({ goalId: goal.id, tool: 'kg_mutate', input } as Decision, contextFor(mind, goal)));
}

test('kg_mutate fails an attempt whose part names no symbol, instead of reporting it already known', async (t) => {
  const mind = new Mind({ tools: builtinTools() });
  const error = await t.throwsAsync(runKgMutate(mind, { subject: '???', predicate: 'is', object: 'weird' }), { instanceOf: ToolFailure });
  t.is(error!.message, `kg_mutate: invalid input: subject: "???${EMPTY}`);
  t.is(mind.graph.size, 0);
});

test("the runtime's own agent:* writes through kg_mutate stay allowed", async (t) => {
  const mind = new Mind({ tools: builtinTools() });
  const output = await runKgMutate(mind, { subject: 'goal-1', predicate: 'agent:explored', object: 'mars' });
  t.true(output.ok);
  t.is(mind.graph.query({ predicate: 'agent:explored' }).length, 1);
});

test('symbols keep "+" and "#": C, C++ and C# are three symbols, and ordinary labels normalise as before', (t) => {
  t.deepEqual(['C', 'C++', 'C#', 'F#', ' Red Planet ', 'has moon', 'agent:explored', 'x-ray', 'Mars, again!'].map(symbolId), [
    'c', 'c++', 'c#', 'f#', 'red_planet', 'has_moon', 'agent:explored', 'x-ray', 'mars_again',
  ]);
  t.is(factReason('C++', 'is a', 'language'), 'ok');
  t.is(factReason('+', 'is an', 'operator'), 'ok', 'a lone "+" still names a symbol');
});

test('kg_mutate adds a fact about C++ after the same fact about C, instead of reporting it already known', async (t) => {
  const mind = new Mind({ tools: builtinTools() });
  const summaries: string[] = [];
  for (const subject of ['C', 'C++', 'C#']) {
    const output = await runKgMutate(mind, { subject, predicate: 'is a', object: 'language' });
    summaries.push(output.summary);
  }
  t.deepEqual(summaries, ['added C is a language', 'added C++ is a language', 'added C# is a language']);
  t.deepEqual(mind.graph.query({ predicate: 'is a' }).map((f) => [f.subject, mind.graph.label(f.subject)]), [['c', 'C'], ['c++', 'C++'], ['c#', 'C#']]);
});

test('facts about C, C++ and C# from outside are three new facts', (t) => {
  const events: AgentEvent[] = [];
  const scheduler = new TestScheduler(() => undefined);
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { config: { maxCycles: 5 } });
    const facts = { a: factStimulus('C', 'is a', 'language'), b: factStimulus('C++', 'is a', 'language'), c: factStimulus('C#', 'is a', 'language') };
    agentEvents(agent, { inputs: [cold('abc|', facts)] }).subscribe((e) => events.push(e));
  });
  t.deepEqual(
    events.filter((e): e is AgentEvent<'fact'> => e.kind === 'fact').map((e) => [e.subject, e.added]),
    [['C', true], ['C++', true], ['C#', true]],
  );
});
