import test from 'ava';
import { readFileSync } from 'node:fs';
import { demoFactSignals, goalSignal, runOnVirtualTime } from './mindFixtures.js';
import type { AgentEvent } from '../streams/events.js';

const actions = (events: AgentEvent[], goalId: string) =>
  events.filter((e): e is AgentEvent<'action'> => e.kind === 'action' && e.goalId === goalId).map((e) => e.tool);

test('on the demo knowledge base a goal worked for 15 cycles uses ≥ 3 tools, ≥ 2 by cycle 5, never one tool 4 times in a row', (t) => {
  const { events, mind } = runOnVirtualTime([...demoFactSignals(), goalSignal('Find stars, classify planets, map orbits and find comets', { stallThreshold: 100 })], {
    config: { maxCycles: 15 },
  });
  const tools = actions(events, 'goal-1');
  t.is(tools.length, 15, 'the goal was worked for 15 cycles');
  t.is(mind.goals.get('goal-1')!.status, 'Active');
  t.true(new Set(tools).size >= 3, `distinct tools: ${tools.join(', ')}`);
  t.true(new Set(tools.slice(0, 5)).size >= 2, `first five: ${tools.slice(0, 5).join(', ')}`);
  for (let i = 3; i < tools.length; i++) t.false(tools[i] === tools[i - 1] && tools[i] === tools[i - 2] && tools[i] === tools[i - 3], `4 in a row at ${i}: ${tools.join(', ')}`);
  t.deepEqual(mind.goals.get('goal-1')!.matched.sort(), ['orbit', 'planet', 'star'], 'the three answerable clauses were established, comets were not');
});

test('"Find moons of Mars" is completed by a fact linking moons and Mars, not by the first mention of either', (t) => {
  const { events, mind } = runOnVirtualTime([...demoFactSignals(), goalSignal('Find moons of Mars')], { config: { maxCycles: 20 } });
  const tools = actions(events, 'goal-1');
  t.is(mind.goals.get('goal-1')!.status, 'Completed');
  t.true(tools.length >= 2, `completed only after ${tools.join(', ')}`);
  const aboutMoons = events.find((e): e is AgentEvent<'action'> => e.kind === 'action' && e.tool === 'kg_query' && /about moon/.test(e.summary));
  t.is(aboutMoons?.progress, 'none', 'the facts about moons in general mention moons but not Mars');
});

test('"Find stars, classify planets, and map orbits" that stalls decomposes into ≥ 2 active children with the parent suspended', (t) => {
  const { events, mind } = runOnVirtualTime([...demoFactSignals(), goalSignal('Find stars, classify planets, and map orbits', { stallThreshold: 1 })], {
    config: { maxCycles: 40 },
  });
  const decomposed = events.find((e): e is AgentEvent<'goal'> => e.kind === 'goal' && e.change === 'decomposed');
  t.truthy(decomposed, 'the goal decomposed');
  t.is(decomposed!.goalId, 'goal-1');
  t.is(decomposed!.status, 'Suspended');
  const children = events.filter((e): e is AgentEvent<'goal'> => e.kind === 'goal' && e.change === 'added' && e.parentId === 'goal-1' && e.seq > decomposed!.seq);
  t.true(children.length >= 2);
  t.true(children.every((c) => c.status === 'Active'));
  t.deepEqual(
    children.map((c) => c.description),
    ['Find stars', 'classify planets', 'map orbits'],
  );
  const parent = mind.goals.get('goal-1')!;
  t.deepEqual(parent.childIds, children.map((c) => c.goalId));
  for (const child of children) {
    t.is(mind.goals.get(child.goalId)!.parentId, 'goal-1');
    t.is(mind.graph.query({ subject: child.goalId, predicate: 'agent:parent_goal', object: 'goal-1' }).length, 1);
    t.is(mind.graph.query({ subject: 'goal-1', predicate: 'agent:child_goal', object: child.goalId }).length, 1);
  }
});

test('reasoning completes "Learn what whales have" (whales inherit what mammals have); a provenance record per decision', (t) => {
  const { events, mind } = runOnVirtualTime([...demoFactSignals(), goalSignal('Learn what whales have')], { config: { maxCycles: 10 } });
  const decisions = events.filter((e) => e.kind === 'decision').length;
  t.is(mind.provenance.length, decisions);
  t.is(mind.goals.get('goal-1')!.status, 'Completed');
  t.true(mind.graph.query({ subject: 'whale', predicate: 'has', object: 'fur' }).length === 1, 'reason concluded that whales have fur');
});

test('the demo goals: explored, reasoned about, decomposed and completed, never one tool 4 times in a row on a goal', (t) => {
  const demoGoals = JSON.parse(readFileSync(new URL('../demo/goals.json', import.meta.url), 'utf8')) as string[];
  const { events, mind } = runOnVirtualTime([...demoFactSignals(), ...demoGoals.map((g) => goalSignal(g))], { config: { maxCycles: 60 } });
  const changes = events.filter((e): e is AgentEvent<'goal'> => e.kind === 'goal').map((e) => e.change);
  t.true(changes.includes('decomposed'));
  t.true(changes.filter((c) => c === 'completed').length >= 4);
  t.true(events.some((e) => e.kind === 'action' && e.tool === 'reason' && e.progress === 'completed'), 'a goal was completed by reasoning');
  for (const goal of mind.goals.all()) {
    const tools = actions(events, goal.id);
    for (let i = 3; i < tools.length; i++) t.false(tools[i] === tools[i - 1] && tools[i] === tools[i - 2] && tools[i] === tools[i - 3], `${goal.id}: ${tools.join(', ')}`);
  }
});

test('every tool the Demo section of docs/mind.md names runs in the demo', (t) => {
  const demoGoals = JSON.parse(readFileSync(new URL('../demo/goals.json', import.meta.url), 'utf8')) as string[];
  const { events, mind } = runOnVirtualTime([...demoFactSignals(), ...demoGoals.map((g) => goalSignal(g))], { config: { maxCycles: 60 } });
  const docs = readFileSync(new URL('../docs/mind.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('## Demo'), docs.indexOf('\n## ', docs.indexOf('## Demo') + 1));
  const named = [...section.matchAll(/`(\w+)`/g)].map((m) => m[1]!).filter((name) => mind.tools.get(name));
  t.true(named.length >= 3, `tools named: ${named.join(', ')}`);
  const ran = new Set(events.filter((e): e is AgentEvent<'action'> => e.kind === 'action').map((e) => e.tool));
  for (const tool of named) t.true(ran.has(tool), `${tool} is named by the docs but never ran in the demo (ran: ${[...ran].join(', ')})`);
});

test('a goal event carries the goal\'s criteria once, as it is added (a signal\'s goal and a decomposition\'s children alike), and no other change repeats them', (t) => {
  const { events, mind } = runOnVirtualTime([...demoFactSignals(), goalSignal('Find stars, classify planets, and map orbits', { criteria: 'stars and planets and orbits', stallThreshold: 1 })], {
    config: { maxCycles: 40 },
  });
  const goals = events.filter((e): e is AgentEvent<'goal'> => e.kind === 'goal');
  const added = goals.filter((e) => e.change === 'added');
  t.true(added.length >= 3, 'the goal and at least two children were added');
  for (const event of added) t.is(event.criteria, mind.goals.get(event.goalId)!.criteria, event.goalId);
  t.is(added[0]!.criteria, 'stars and planets and orbits');
  const others = goals.filter((e) => e.change !== 'added');
  t.true(others.length > 0);
  t.true(others.every((e) => !('criteria' in e)), others.map((e) => e.change).join(', '));
});
