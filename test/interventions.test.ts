import test from 'ava';
import { z } from 'zod';
import { Mind, type MindExtension } from '../mind/mind.js';
import { endIntervention, startIntervention, type PlanDropper } from '../mind/intervention.js';
import { findLoop } from '../mind/loopDetection.js';
import { ToolFailure, type Tool } from '../mind/tool.js';
import type { AgentOptions } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, goalStimulus, TestScheduler } from '../streams/testing.js';

/** The only tool that fits: it times out every time. */
const flakyFetch: Tool<{ url: string }> = {
  name: 'flaky_fetch',
  description: 'Fetches a web page (here it always times out).',
  keywords: ['fetch', 'web', 'page', 'download'],
  danger: 'safe',
  capabilities: ['net.read'],
  input: z.object({ url: z.string() }),
  scoring: { kind: 'core', base: () => 0.9 },
  propose: ({ goal }) => ({ url: `https://example.org/${goal.id}` }),
  execute: () => {
    throw new ToolFailure('flaky_fetch', 'timed out');
  },
};

/** A plan-keeping extension, as the planner would register it. */
class Plans implements MindExtension, PlanDropper {
  readonly name = 'plans';
  readonly dropped: string[] = [];
  toJSON(): unknown {
    return {};
  }
  load(): void {}
  dropPlan(goalId: string): boolean {
    this.dropped.push(goalId);
    return true;
  }
}

/** Runs an agent on virtual time until it stops; returns every event. */
function run(goal: string, options: AgentOptions = {}): AgentEvent[] {
  const events: AgentEvent[] = [];
  const scheduler = new TestScheduler(() => undefined);
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { mind: new Mind({ tools: [flakyFetch] }), ...options, config: { maxCycles: 40, ...options.config } });
    agentEvents(agent, { inputs: [cold('a|', { a: goalStimulus(goal) })] }).subscribe((e) => events.push(e));
  });
  return events;
}

const only = <K extends AgentEvent['kind']>(events: AgentEvent[], kind: K) => events.filter((e): e is AgentEvent<K> => e.kind === kind);

test('an agent whose only tool keeps failing raises exactly one intervention, then resumes the goal', (t) => {
  const events = run('Fetch the weather report');
  const loops = only(events, 'loop');
  const interventions = only(events, 'intervention');
  t.is(loops.length, 1);
  t.is(interventions.length, 1);
  t.like(loops[0], { goalId: 'goal-1', type: 'high_frequency_action', actionType: 'flaky_fetch', count: 2, frequency: 1, intervened: true });
  t.like(interventions[0], {
    goalId: 'goal-2',
    suspendedGoalId: 'goal-1',
    description: 'INTERVENTION: break loop — high_frequency_action of flaky_fetch',
    loopType: 'high_frequency_action',
    actionType: 'flaky_fetch',
    planDropped: true,
  });
  t.is(
    interventions[0]!.narrative,
    'I noticed I was repeating flaky_fetch: 2 of my last 2 actions while working on "Fetch the weather report". I set that goal aside to break the loop and dropped its plan; I will come back to it.',
  );
  // The goals' story: the looping goal is suspended, the intervention runs and ends, the goal resumes.
  t.deepEqual(
    only(events, 'goal').map((g) => `${g.goalId} ${g.change} ${g.status} ${g.priority}`),
    [
      'goal-1 added Active 128',
      'goal-1 suspended Suspended 128',
      'goal-2 added Active 255',
      'goal-2 failed Failed 255',
      'goal-1 resumed Active 128',
      'goal-1 failed Failed 128',
    ],
  );
  // The intervention goal took the focus at once, and the resumed goal got it back.
  const worked = only(events, 'action').map((a) => a.goalId);
  t.deepEqual(worked.filter((g, i) => g !== worked[i - 1]), ['goal-1', 'goal-2', 'goal-1']);
  // loop, goal, goal, the dropped plan, intervention come in one pass, in that order.
  const at = events.findIndex((e) => e.kind === 'loop');
  t.deepEqual(events.slice(at, at + 5).map((e) => e.kind), ['loop', 'goal', 'goal', 'plan', 'intervention']);
  t.like(events[at + 3], { goalId: 'goal-1', status: 'Superseded', change: 'superseded' });
  t.regex((events[at + 3] as AgentEvent<'plan'>).reason, /^loop: flaky_fetch made up/);
});

test('the intervention drops the suspended goal’s plan through the PlanDropper hook', (t) => {
  const mind = new Mind({ tools: [flakyFetch] });
  const plans = new Plans();
  mind.registerExtension(plans);
  const events = run('Fetch the weather report', { mind });
  t.deepEqual(plans.dropped, ['goal-1']);
  const [intervention] = only(events, 'intervention');
  t.true(intervention!.planDropped);
  t.regex(intervention!.narrative, /I set that goal aside to break the loop and dropped its plan; I will come back to it\.$/);
  t.true(mind.memory.recent(100).some((m) => m.kind === 'Reflection' && m.content === intervention!.narrative), 'the narrative is in working memory');
});

test('a plan dropper that throws, or returns something that is no plan change, is named in an error; the intervention goes on, the other droppers are asked, and loop detection stays on', (t) => {
  const droppers: [string, (goalId: string) => unknown, string][] = [
    ['throws', (goalId) => {
      throw new Error(`no plan for ${goalId}`);
    }, 'mind extension "brittle" failed to drop the plan of goal goal-1: no plan for goal-1'],
    ['junk', () => ({ junk: true }), 'mind extension "brittle" failed to drop the plan of goal goal-1: dropPlan returned {"junk":true}, not true, false or a plan change ({ plan, change, reason })'],
  ];
  for (const [name, dropPlan, message] of droppers) {
    const mind = new Mind({ tools: [flakyFetch] });
    mind.registerExtension({ name: 'brittle', toJSON: () => ({}), load: () => undefined, dropPlan } as MindExtension);
    const plans = new Plans();
    mind.registerExtension(plans);
    const events = run('Fetch the weather report', { mind });
    t.deepEqual(only(events, 'error').filter((e) => e.tool === undefined).map((e) => `${e.severity}: ${e.message}`), [`critical: ${message}`], name);
    t.deepEqual(plans.dropped, ['goal-1'], `${name}: the dropper after it is asked`);
    t.is(only(events, 'intervention').length, 1, name);
    t.deepEqual(
      only(events, 'goal').map((g) => `${g.goalId} ${g.change}`),
      ['goal-1 added', 'goal-1 suspended', 'goal-2 added', 'goal-2 failed', 'goal-1 resumed', 'goal-1 failed'],
      `${name}: the suspended goal resumes when the intervention ends`,
    );
  }
});

test('invalid loopDetection settings become warning events and take their defaults', (t) => {
  const events = run('Fetch the weather report', { config: { loopDetection: { frequencyThreshold: 2, windowSize: 'five' } } });
  t.deepEqual(
    only(events, 'warning').map((w) => w.key),
    ['loopDetection.frequencyThreshold', 'loopDetection.windowSize'],
  );
  t.regex(only(events, 'warning')[0]!.message, /frequencyThreshold = 2 is invalid .*using the default 0\.7/);
  t.is(only(events, 'intervention').length, 1, 'detection still runs on the defaults');
});

test('loopDetection.thinkingTools naming no registered tool is one warning at the run\'s start, naming it and the registered tools', (t) => {
  const events = run('Fetch the weather report', { config: { loopDetection: { thinkingTools: ['flaky_fetch', 'reasn', 'ponder'] } } });
  const warnings = only(events, 'warning');
  t.is(warnings.length, 1, 'one warning for every unknown name');
  t.is(warnings[0]!.key, 'loopDetection.thinkingTools');
  t.is(
    warnings[0]!.message,
    'loopDetection.thinkingTools names tools that are not registered: "reasn", "ponder" (registered tools: flaky_fetch); ' +
      'a misspelling? Such a name marks no action as thinking unless a tool of that name is registered later',
  );
  t.true(events.indexOf(warnings[0]!) < events.findIndex((e) => e.kind === 'decision'), 'given before the first decision');
  t.is(only(events, 'intervention').length, 0, 'the known name still counts: flaky_fetch is thinking, so no loop');
});

test('loopDetection.thinkingTools: no warning when every name is registered, nor for the default when the mind has no reason tool', (t) => {
  t.deepEqual(only(run('Fetch the weather report', { config: { loopDetection: { thinkingTools: ['flaky_fetch'] } } }), 'warning'), []);
  t.deepEqual(only(run('Fetch the weather report'), 'warning'), [], 'the default ["reason"] is not the user\'s');
});

test('a thinking tool registered after createAgent but before the run is no unknown name', (t) => {
  const mind = new Mind();
  const events: AgentEvent[] = [];
  const scheduler = new TestScheduler(() => undefined);
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { mind, config: { maxCycles: 10, loopDetection: { thinkingTools: ['flaky_fetch'] } } });
    agent.mind.tools.register(flakyFetch);
    agentEvents(agent, { inputs: [cold('a|', { a: goalStimulus('Fetch the weather report') })] }).subscribe((e) => events.push(e));
  });
  t.deepEqual(only(events, 'warning'), []);
});

test('loopDetection.enabled false turns the watcher off', (t) => {
  const events = run('Fetch the weather report', { config: { loopDetection: { enabled: false } } });
  t.is(only(events, 'loop').length, 0);
  t.is(only(events, 'intervention').length, 0);
  t.is(only(events, 'goal').at(-1)!.status, 'Failed');
});

test('starting and ending an intervention is journaled: rollback restores the mind exactly', (t) => {
  const mind = new Mind();
  const goal = mind.addGoal({ description: 'Map the moons' });
  const loop = findLoop([{ type: 'kg_query' }, { type: 'kg_query' }, { type: 'kg_query' }])!;
  mind.checkpoint();
  const before = JSON.stringify(mind.toJSON());
  const intervention = startIntervention(mind, goal.id, loop, { at: 0 })!;
  t.is(mind.goals.get(goal.id)!.suspendedFor, `intervention:${intervention.goal.id}`);
  t.is(mind.goals.focus()!.id, intervention.goal.id);
  mind.goals.update(intervention.goal, { status: 'Completed' });
  t.deepEqual(endIntervention(mind, intervention.goal.id).map((c) => [c.goal.id, c.change, c.goal.status]), [[goal.id, 'resumed', 'Active']]);
  t.is(mind.goals.get(goal.id)!.suspendedFor, undefined);
  mind.rollback();
  t.is(JSON.stringify(mind.toJSON()), before);
});

test('no intervention for a goal that is not active', (t) => {
  const mind = new Mind();
  const goal = mind.addGoal({ description: 'Map the moons' });
  mind.goals.update(goal, { status: 'Completed' });
  const loop = findLoop([{ type: 'kg_query' }, { type: 'kg_query' }])!;
  t.is(startIntervention(mind, goal.id, loop, { at: 0 }), null);
  t.is(mind.goals.all().length, 1);
});
