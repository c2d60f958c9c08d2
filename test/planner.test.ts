import test from 'ava';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { PLAN_BONUS, Planner } from '../mind/planner.js';
import { StrategyMatcher } from '../mind/strategies.js';
import { ToolFailure, type Tool } from '../mind/tool.js';
import { parseBreakdown } from '../mind/utility.js';
import { createAgent, type AgentOptions } from '../streams/createAgent.js';
import type { AgentEvent, EventOf } from '../streams/events.js';
import { goalStimulus } from '../streams/testing.js';
import { of } from 'rxjs';

/** A core-scored tool with a fixed base score. */
function coreTool(name: string, keywords: string[], base: number, run: () => { ok: boolean; summary: string } = () => ({ ok: true, summary: `${name} ran` })): Tool {
  return {
    name,
    description: `${name} (test tool)`,
    keywords,
    danger: 'safe',
    capabilities: [],
    input: z.object({}).passthrough(),
    scoring: { kind: 'core', base: () => base },
    propose: () => ({}),
    execute: run,
  };
}

const GATHER = ['find', 'search', 'discover', 'explore', 'list', 'identify', 'query'];
const REASON = ['reason', 'infer', 'deduce', 'classify', 'analyze', 'why'];

async function runAgent(options: AgentOptions, goal: string): Promise<AgentEvent[]> {
  const agent = createAgent({ session: 't', ...options, config: { heartbeatMs: 0, ...options.config } });
  const events$ = agent.run({ inputs: [of(goalStimulus(goal))] });
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  return all;
}

const plans = (events: AgentEvent[]) => events.filter((e): e is EventOf<'plan'> => e.kind === 'plan');

test('the strategy is the seed pattern most similar to the goal text', (t) => {
  const matcher = new StrategyMatcher();
  const strategy = (description: string) => matcher.strategyFor({ description, criteria: '' }).name;
  t.is(strategy('find and list the moons of Mars'), 'Knowledge');
  t.is(strategy('reason why planets classify and infer'), 'Reasoning');
  t.is(strategy('create and store a link to build the catalogue'), 'Creation');
  t.is(strategy('fetch the file over http with a shell command'), 'External');
  t.is(strategy('compare similar related planets in a cluster'), 'Similarity');
  t.is(strategy('zebra quantum umbrella'), 'Knowledge', 'no pattern stands out: Knowledge');
});

test('backtracking: attempts 0 to 3 alternate explore-first and reason-first, and the goal fails when the first plan and its 3 retries (maxBacktrackAttempts) have failed', async (t) => {
  const failing = () => {
    throw new ToolFailure('x', 'always fails');
  };
  const mind = new Mind({ tools: [coreTool('scout', GATHER, 0.5, failing), coreTool('thinker', REASON, 0.5, failing)] });
  const events = await runAgent({ mind, config: { maxCycles: 20, maxBacktrackAttempts: 3 } }, 'find the moons of Mars');
  const created = plans(events).filter((p) => p.change === 'created');
  t.deepEqual(created.map((p) => p.attempt), [0, 1, 2, 3]);
  t.deepEqual(created.map((p) => p.order), ['explore-first', 'reason-first', 'explore-first', 'reason-first']);
  t.deepEqual(created.map((p) => p.steps.map((s) => s.tool)), [['scout', 'thinker'], ['thinker', 'scout'], ['scout', 'thinker'], ['thinker', 'scout']]);
  t.true(created.every((p) => p.steps.every((s) => typeof s.rationale === 'string' && s.rationale.length > 0)), 'a created plan gives each step its rationale');
  const failed = plans(events).filter((p) => p.change === 'failed');
  t.true(failed.every((p) => p.steps.every((s) => s.rationale === undefined && s.status !== undefined)), 'later changes give the steps\' status only');
  t.is(failed.length, 4);
  t.true(failed.every((p) => p.status === 'Failed'));
  t.regex(failed[3]!.reason, /4 plan\(s\) failed, the first and 3 retry\(ies\) \(maxBacktrackAttempts 3\): the goal fails/);
  const goalFailed = events.findIndex((e) => e.kind === 'goal' && e.status === 'Failed');
  t.true(goalFailed > events.indexOf(failed[3]!), 'the goal fails after the fourth plan failure');
  t.is(mind.goals.get('goal-1')!.status, 'Failed');
  t.is(events.filter((e) => e.kind === 'action').length, 4, 'one failed step per plan, nothing after the goal failed');
});

test('maxBacktrackAttempts counts retries: 0 fails the goal with its first plan, 1 allows one more plan', async (t) => {
  const failing = () => {
    throw new ToolFailure('x', 'always fails');
  };
  for (const [retries, plansMade] of [[0, 1], [1, 2]] as const) {
    const mind = new Mind({ config: MindConfig.parse({ maxBacktrackAttempts: retries }), tools: [coreTool('scout', GATHER, 0.5, failing), coreTool('thinker', REASON, 0.5, failing)] });
    const events = await runAgent({ mind, config: { maxCycles: 20 } }, 'find the moons of Mars');
    t.is(plans(events).filter((p) => p.change === 'created').length, plansMade, `maxBacktrackAttempts ${retries}`);
    t.is(plans(events).filter((p) => p.change === 'failed').length, plansMade, `maxBacktrackAttempts ${retries}`);
    t.is(mind.goals.get('goal-1')!.status, 'Failed', `maxBacktrackAttempts ${retries}`);
  }
});

test('a step whose tool reports ok: false fails its plan, as one that throws does', async (t) => {
  const refusing = () => ({ ok: false, summary: 'nothing found' });
  const mind = new Mind({ tools: [coreTool('scout', GATHER, 0.5, refusing), coreTool('thinker', REASON, 0.5, refusing)] });
  const events = await runAgent({ mind, config: { maxCycles: 20, maxBacktrackAttempts: 3 } }, 'find the moons of Mars');
  t.true(events.filter((e) => e.kind === 'action').every((e) => e.status === 'failed'));
  const failed = plans(events).filter((p) => p.change === 'failed');
  t.is(failed.length, 4);
  t.regex(failed[0]!.reason, /^step 0 \(scout\) failed: nothing found/);
  t.is(mind.goals.get('goal-1')!.status, 'Failed');
});

test('a plan step wins a close decision because of the plan bonus, and the breakdown shows it', async (t) => {
  const tools = () => [coreTool('scout', GATHER, 0.6), coreTool('thinker', REASON, 0.65)];
  const planned = await runAgent({ mind: new Mind({ tools: tools() }), config: { maxCycles: 1 } }, 'find the moons of Mars');
  const decision = planned.find((e): e is EventOf<'decision'> => e.kind === 'decision')!;
  t.is(decision.tool, 'scout');
  t.true(decision.breakdown.endsWith(` plan=+${PLAN_BONUS.toFixed(2)}]`), decision.breakdown);
  t.is(decision.breakdown, '[score=0.95: base=0.60 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.000 plan=+0.20]');
  const parsed = parseBreakdown(decision.breakdown)!;
  t.is(parsed.parts.plan, PLAN_BONUS);
  t.deepEqual(decision.alternatives, [{ tool: 'thinker', score: 0.8 }]);
  t.regex(decision.reason, /next step of the plan/);

  // The same agent without the plan stage chooses the other tool.
  const unplanned = await runAgent(
    { mind: new Mind({ tools: tools() }), config: { maxCycles: 1 }, cycle: (s) => (c$) => c$.pipe(s.observe, s.orient, s.decide, s.verify, s.act) },
    'find the moons of Mars',
  );
  const without = unplanned.find((e): e is EventOf<'decision'> => e.kind === 'decision')!;
  t.is(without.tool, 'thinker');
  t.false(without.breakdown.includes('plan='));
});

test('the agent may leave the plan for a clearly better tool, and leaving is recorded', async (t) => {
  const mind = new Mind({ tools: [coreTool('scout', GATHER, 0.3), coreTool('thinker', REASON, 0.9)] });
  const events = await runAgent({ mind, config: { maxCycles: 1 } }, 'find the moons of Mars');
  const decision = events.find((e): e is EventOf<'decision'> => e.kind === 'decision')!;
  t.is(decision.tool, 'thinker');
  const left = plans(events).find((p) => p.change === 'left')!;
  t.is(left.step, 0);
  t.is(left.departures, 1);
  t.regex(left.reason, /chose thinker over step 0 \(scout\)/);
  t.is(left.status, 'Active', 'the plan still stands');
});

test('plans follow the steps that succeed, complete, and are saved with the mind and rolled back exactly', (t) => {
  const mind = new Mind({ tools: [coreTool('scout', GATHER, 0.6), coreTool('thinker', REASON, 0.6)] });
  const planner = Planner.attach(mind);
  const goal = mind.addGoal({ description: 'find the moons of Mars' });
  const now = () => 0;
  const [created] = planner.steer(goal, now);
  t.is(created!.change, 'created');
  mind.checkpoint();
  t.is(planner.follow({ goalId: goal.id, tool: 'scout', result: 'ok', summary: 'ok' }, now).plans[0]!.change, 'step');
  t.is(planner.activeStep(goal.id)!.tool, 'thinker');
  mind.rollback();
  t.is(planner.activeStep(goal.id)!.tool, 'scout', 'rollback restores the step');
  planner.follow({ goalId: goal.id, tool: 'scout', result: 'ok', summary: 'ok' }, now);
  const done = planner.follow({ goalId: goal.id, tool: 'thinker', result: 'ok', summary: 'ok' }, now);
  t.is(done.plans[0]!.change, 'completed');
  t.is(planner.current(goal.id)!.status, 'Completed');

  const saved = JSON.parse(JSON.stringify(mind.toJSON()));
  const restored = Mind.fromJSON(saved, { tools: [coreTool('scout', GATHER, 0.6), coreTool('thinker', REASON, 0.6)] });
  const again = Planner.attach(restored);
  t.deepEqual(again.current(goal.id), planner.current(goal.id));
  t.deepEqual(restored.toJSON().extensions, mind.toJSON().extensions);
});
