import test from 'ava';
import { z } from 'zod';
import { from, take, VirtualTimeScheduler } from 'rxjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultMindConfig } from '../mind/config.js';
import { Mind, type MindExtension } from '../mind/mind.js';
import { Planner } from '../mind/planner.js';
import type { Tool } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { AgentConfig } from '../streams/config.js';
import type { AgentEvent } from '../streams/events.js';
import { replaySession } from '../streams/replay.js';
import { agentEvents, createTestAgent, factStimulus, flushSettled, goalStimulus } from '../streams/testing.js';
import { recordSession } from './helpers/recordSession.js';
import { runOnVirtualTime, STUCK_RUN, stimuliOf } from './mindFixtures.js';

const mindKeeping = (finishedGoalsKept: number): Mind => new Mind({ config: { ...defaultMindConfig(), finishedGoalsKept } });
const ids = (mind: Mind): string[] => mind.goals.all().map((g) => g.id);

test('the goals that finished longest ago are retired past finishedGoalsKept, with their decision history, at the next pass; a rollback does not bring them back', (t) => {
  const mind = mindKeeping(2);
  const goals = [1, 2, 3, 4, 5].map((n) => mind.addGoal({ description: `goal ${n}` }));
  for (const goal of goals) mind.decisions.record(goal.id, 'kg_query');
  // Finished out of creation order: goal 3 first, so it is the first to go.
  for (const [index, status] of [[2, 'Completed'], [0, 'Failed'], [1, 'Completed'], [3, 'Completed']] as const) mind.goals.update(goals[index]!, { status });
  t.deepEqual(ids(mind), goals.map((g) => g.id), 'nothing is retired during the pass');

  mind.checkpoint();
  t.deepEqual(ids(mind), [goals[1]!.id, goals[3]!.id, goals[4]!.id], 'the two that finished last and the active one are kept');
  t.is(mind.goals.finishedCount, 2);
  t.deepEqual(mind.decisions.recent(goals[2]!.id), [], 'a retired goal has no decision history');
  t.deepEqual(mind.decisions.recent(goals[1]!.id), ['kg_query']);

  mind.goals.update(goals[4]!, { priority: 7 });
  mind.rollback();
  t.deepEqual(ids(mind), [goals[1]!.id, goals[3]!.id, goals[4]!.id], 'rollback undoes the pass, not the retirement before it');
  t.is(mind.goals.get(goals[4]!.id)!.priority, 128);
});

test('a finished sub-goal stays while its parent is unfinished (the parent settles on it) and is retired after the parent finishes', (t) => {
  const mind = mindKeeping(1);
  const parent = mind.addGoal({ description: 'parent' });
  const child = mind.addGoal({ description: 'child', parentId: parent.id });
  const other = mind.addGoal({ description: 'other' });
  mind.goals.update(child, { status: 'Completed' });
  mind.goals.update(other, { status: 'Completed' });
  mind.checkpoint();
  t.deepEqual(ids(mind), [parent.id, child.id], 'the child is kept although it finished first; the other goal goes');
  mind.goals.update(parent, { status: 'Completed' });
  mind.checkpoint();
  t.deepEqual(ids(mind), [parent.id]);
});

test('finishedGoalsKept: 0 keeps no finished goal; a negative or fractional value is a config error naming the key', (t) => {
  const mind = mindKeeping(0);
  const goal = mind.addGoal({ description: 'done soon' });
  mind.goals.update(goal, { status: 'Completed' });
  mind.checkpoint();
  t.deepEqual(ids(mind), []);
  for (const bad of [-1, 2.5]) t.throws(() => AgentConfig.parse({ finishedGoalsKept: bad }), { message: /finishedGoalsKept/ });
});

test('a long stuck run keeps a bounded mind: intervention goals past finishedGoalsKept leave with their plans, and loops are still caught', (t) => {
  const { events, mind } = runOnVirtualTime(STUCK_RUN, { config: { maxCycles: 1500, finishedGoalsKept: 3 } });
  const made = new Set(events.filter((e) => e.kind === 'goal' && e.change === 'added').map((e) => (e as { goalId: string }).goalId));
  t.true(made.size > 50, `${made.size} goals were made`);
  t.is(mind.goals.finishedCount, 3);
  const kept = new Set(ids(mind));
  t.true(kept.size <= 5, `${kept.size} goals kept`);
  const state = mind.toJSON();
  t.true(Object.keys(state.decisions).every((goalId) => kept.has(goalId)), 'decision histories only for kept goals');
  t.true(Planner.of(mind)!.plans().every((plan) => kept.has(plan.goalId)), 'plans only for kept goals');
  const lateInterventions = events.filter((e) => e.kind === 'intervention' && e.cycle > 1000);
  t.true(lateInterventions.length > 5, 'loop detection goes on working after goals are retired');
});

test('a session that retires goals replays identically', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'retire-replay-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'a.db');
  const config = AgentConfig.parse({ seed: 5, heartbeatMs: 0, maxCycles: 400, finishedGoalsKept: 2 });
  const agent = await recordSession(db, 'rec', config, stimuliOf(STUCK_RUN));
  t.true(agent.mind.goals.all().length <= 4, 'goals were retired during the recorded run');
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    t.like(await replaySession(store, 'rec'), { identical: true });
  } finally {
    await store.close();
  }
});

test('an extension whose forgetGoal throws is reported on the pass, naming it; the goal is retired all the same, the others are told, and the stream never errors', async (t) => {
  const forgotten: string[] = [];
  const failing: MindExtension = { name: 'brittle', toJSON: () => null, load: () => undefined, forgetGoal: (id) => {
    throw new Error(`cannot forget ${id}`);
  } };
  const telling: MindExtension = { name: 'told', toJSON: () => null, load: () => undefined, forgetGoal: (id) => void forgotten.push(id) };
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 6, finishedGoalsKept: 0 } });
  agent.mind.registerExtension(failing);
  agent.mind.registerExtension(telling);
  const events: AgentEvent[] = [];
  let failure: unknown;
  const input = [factStimulus('Mars', 'has moon', 'Phobos'), goalStimulus('Find moons of Mars'), goalStimulus('Map the orbits of Jupiter')];
  agentEvents(agent, { inputs: [from(input)] }).pipe(take(500)).subscribe({ next: (e) => events.push(e), error: (error) => (failure = error) });
  await flushSettled(scheduler);
  t.is(failure, undefined);
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', message: 'mind extension "brittle" failed to forget retired goal goal-1: cannot forget goal-1', rolledBack: false });
  t.deepEqual(forgotten, ['goal-1'], 'the extension after it is still told');
  t.false(ids(agent.mind).includes('goal-1'), 'the goal is retired');
  t.like(events.at(-1), { kind: 'session', state: 'stopped' });
});

test('an extension\'s failure to forget a retired goal is still reported when the same pass hits a critical error and rolls back', async (t) => {
  const forgotten: string[] = [];
  const failing: MindExtension = { name: 'brittle', toJSON: () => null, load: () => undefined, forgetGoal: (id) => {
    throw new Error(`cannot forget ${id}`);
  } };
  const telling: MindExtension = { name: 'told', toJSON: () => null, load: () => undefined, forgetGoal: (id) => void forgotten.push(id) };
  // Chosen only once a goal has been retired, so its bug hits the pass that retired it.
  const buggy: Tool<Record<string, never>> = {
    name: 'buggy_once_retired',
    description: 'a tool with a bug',
    keywords: ['orbits'],
    danger: 'safe',
    capabilities: [],
    input: z.object({}),
    scoring: { kind: 'core', base: () => (forgotten.length > 0 ? 1 : 0) },
    propose: () => ({}),
    execute: () => {
      throw new TypeError('a bug in the tool');
    },
  };
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { mind: new Mind({ config: { ...defaultMindConfig(), finishedGoalsKept: 0 }, tools: [...builtinTools(), buggy] }), config: { maxCycles: 4 } });
  agent.mind.registerExtension(failing);
  agent.mind.registerExtension(telling);
  const events: AgentEvent[] = [];
  const input = [factStimulus('Mars', 'has moon', 'Phobos'), goalStimulus('Find moons of Mars'), goalStimulus('Map the orbits of Jupiter')];
  agentEvents(agent, { inputs: [from(input)] }).pipe(take(500)).subscribe((e) => events.push(e));
  await flushSettled(scheduler);
  const errors = events.filter((e) => e.kind === 'error');
  const rolledBackAt = errors.findIndex((e) => e.rolledBack);
  t.true(rolledBackAt >= 0, 'the pass that retired goal-1 rolled back');
  t.like(errors.slice(0, rolledBackAt), [{ severity: 'critical', message: 'mind extension "brittle" failed to forget retired goal goal-1: cannot forget goal-1', rolledBack: false }]);
  t.false(ids(agent.mind).includes('goal-1'), 'the goal stays retired');
});

test('a restored mind retires the goals that finished longest ago, as the saved one would: the finishing order is saved with it', (t) => {
  const mind = mindKeeping(1);
  const [first, second] = [mind.addGoal({ description: 'goal a' }), mind.addGoal({ description: 'goal b' })];
  // Finished out of creation order: the second goal first.
  mind.goals.update(second!, { status: 'Completed' });
  mind.goals.update(first!, { status: 'Failed' });
  const resumed = Mind.fromJSON(JSON.parse(JSON.stringify(mind.toJSON())), { config: mind.config });
  t.deepEqual(resumed.goals.finishedInOrder().map((g) => g.id), [second!.id, first!.id]);
  mind.checkpoint();
  resumed.checkpoint();
  t.deepEqual(ids(resumed), ids(mind));
  t.deepEqual(ids(resumed), [first!.id], 'the goal that finished last is kept');
});
