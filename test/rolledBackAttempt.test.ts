import test from 'ava';
import { map, pipe } from 'rxjs';
import { z } from 'zod';
import { Mind } from '../mind/mind.js';
import type { Skill } from '../mind/skills.js';
import type { Tool } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import type { AgentEvent } from '../streams/events.js';
import type { AgentOptions } from '../streams/createAgent.js';
import { runBounded as runBoundedOn, weatherTool } from './helpers/agentRuns.js';

/** A tool with a programming error: it always throws a TypeError. */
const buggy = weatherTool({
  execute: () => {
    throw new TypeError("Cannot read properties of null (reading 'x')");
  },
});

const runBounded = (options: AgentOptions, goal = 'weather forecast rain temperature for Paris') => runBoundedOn(options, goal, 400);

const count = (events: AgentEvent[], kind: string) => events.filter((e) => e.kind === kind).length;

test('a tool that always throws a TypeError is rolled back, yet the run ends at maxCycles', (t) => {
  const events = runBounded({ tools: [buggy], config: { maxCycles: 2 } });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 2 });
  const errors = events.filter((e) => e.kind === 'error');
  t.true(errors.length > 0 && errors.length <= 4, `${errors.length} errors`);
  t.true(errors.every((e) => e.kind === 'error' && e.severity === 'critical' && e.rolledBack && e.tool === 'weather_lookup'), 'each names the tool');
  const actions = events.filter((e) => e.kind === 'action');
  t.is(actions.length, 2);
  t.like(actions[0], { tool: 'weather_lookup', status: 'failed' });
  t.is(count(events, 'decision'), 2);
});

test('rolled-back attempts count against the goal: it ends Failed and the run ends', (t) => {
  const events = runBounded({ tools: [buggy], config: { maxCycles: 100, stallThreshold: 1_000 } });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended and no goal is active' });
  t.like(events.findLast((e) => e.kind === 'goal'), { change: 'failed' });
  t.true(count(events, 'error') <= 10);
});

test('a stage that throws a TypeError before deciding still uses up the tick’s cycle', (t) => {
  const events = runBounded({
    config: { maxCycles: 3 },
    cycle: (stages) =>
      pipe(
        stages.observe,
        map((cycle) => {
          if (cycle.signal.type === 'tick') throw new TypeError('stage bug');
          return cycle;
        }),
      ),
  });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
});

test('a tool whose propose throws fails that attempt (transient, naming the tool), is left out of plans, and the agent goes on with other tools', (t) => {
  const proposeBug: Tool<{ city: string }> = {
    ...buggy,
    propose: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'city')");
    },
    execute: () => ({ ok: true, summary: 'sunny' }),
  };
  const events = runBounded({ tools: [proposeBug], config: { maxCycles: 8 } });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached' });
  const errors = events.filter((e) => e.kind === 'error');
  t.true(errors.length > 0);
  for (const error of errors) {
    t.like(error, { severity: 'transient', rolledBack: false, tool: 'weather_lookup', message: "weather_lookup: propose failed: Cannot read properties of undefined (reading 'city')" });
  }
  const decided = events.filter((e) => e.kind === 'decision').map((e) => (e.kind === 'decision' ? e.tool : ''));
  t.true(decided.length >= 1, `decisions: ${decided.join(', ')}`);
  t.false(decided.includes('weather_lookup'), 'never decided with an input it could not propose');
  for (const plan of events.filter((e) => e.kind === 'plan')) {
    t.false(plan.kind === 'plan' && plan.steps.some((step) => step.tool === 'weather_lookup'), 'left out of plans');
  }
});

test('a plan step whose tool hits a bug fails its plan, even when the failing pass made the plan; the next plan puts that tool last', (t) => {
  const tools = builtinTools().map((tool) =>
    tool.name === 'kg_query'
      ? {
          ...tool,
          execute: () => {
            throw new TypeError('kg_query bug');
          },
        }
      : tool,
  );
  const events = runBounded({ mind: new Mind({ tools }), config: { maxCycles: 3 } }, 'Find the moons of Jupiter');
  const story = events
    .filter((e) => e.kind === 'plan' || e.kind === 'decision' || e.kind === 'action')
    .map((e) => (e.kind === 'plan' ? `${e.planId} ${e.change} ${e.steps.map((s) => s.tool).join(',')}` : e.kind === 'decision' ? `decided ${e.tool}` : `${e.tool} ${e.status}`));
  // The goal's own pass plans (kg_query first), decides on kg_query and hits the bug: the plan made in
  // that rolled-back pass is still reported, before its decision, and the failure reaches it.
  t.deepEqual(story.slice(0, 5), [
    'plan-1 created kg_query,memory_recall,reason,gap_analysis',
    'decided kg_query',
    'kg_query failed',
    'plan-1 failed kg_query,memory_recall,reason,gap_analysis',
    'plan-2 created reason,gap_analysis,memory_recall,kg_query',
  ]);
  t.like(events.find((e) => e.kind === 'plan' && e.change === 'failed'), { step: 0, reason: 'step 0 (kg_query) failed: kg_query bug' });
  t.not(story.filter((line) => line.startsWith('decided'))[1], 'decided kg_query', 'the plan no longer steers to the failing tool');
});

test('a bug in an operator between stages blames no tool: no failed action, no tool on the error, no loop intervention; the run still ends at maxCycles', (t) => {
  const events = runBounded(
    {
      config: { maxCycles: 12 },
      cycle: (s) =>
        pipe(
          s.observe,
          s.orient,
          s.decide,
          map((cycle) => {
            if (cycle.decision) throw new Error('my operator broke');
            return cycle;
          }),
          s.act,
        ),
    },
    'Find the moons of Jupiter',
  );
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 12 });
  const errors = events.filter((e) => e.kind === 'error');
  t.true(errors.length >= 12);
  for (const error of errors) t.like(error, { severity: 'critical', rolledBack: true, message: 'my operator broke', tool: undefined });
  t.is(count(events, 'action'), 0, 'no tool ran, none is reported as failed');
  t.is(count(events, 'decision'), 0, 'the rolled-back decisions are not reported');
  t.is(count(events, 'intervention'), 0);
});

test('a skill error reported before a tool\'s bug is kept through the rollback, after the decision it was about', (t) => {
  const failing: Skill = {
    name: 'brittle_check',
    trigger: () => true,
    verify: () => {
      throw new Error('the check broke');
    },
  };
  const events = runBounded({ mind: new Mind({ tools: [buggy] }), skills: [failing], config: { maxCycles: 1 } });
  const pass = events.filter((e) => ['decision', 'action', 'error'].includes(e.kind)).map((e) => (e.kind === 'error' ? `${e.kind} ${e.severity}` : e.kind));
  t.deepEqual(pass, ['decision', 'error transient', 'action', 'error critical']);
  t.like(events.find((e) => e.kind === 'error'), { message: 'skill "brittle_check" failed in verify: the check broke', skill: 'brittle_check' });
});

test('a tool whose input schema throws as it parses (an async refine, a transform that throws) is a bug of that tool: the decision, a failed action, a critical error naming it, and the attempt counts', (t) => {
  const schemas = {
    'an async refine': z.object({ city: z.string().refine(async (city) => city.length > 0, 'unknown city') }),
    'a transform that throws': z.object({
      city: z.string().transform((): string => {
        throw new Error('no such city');
      }),
    }),
  };
  for (const [what, input] of Object.entries(schemas)) {
    const events = runBounded({ tools: [weatherTool({ input })], config: { maxCycles: 100, stallThreshold: 1_000 } });
    const errors = events.filter((e) => e.kind === 'error');
    t.true(errors.length > 0, what);
    for (const error of errors) {
      t.like(error, { severity: 'critical', rolledBack: true, tool: 'weather_lookup' }, what);
      t.regex(error.kind === 'error' ? error.message : '', /^weather_lookup: its input schema threw while parsing the input/, what);
    }
    const decided = events.flatMap((e) => (e.kind === 'decision' ? [e.tool] : []));
    t.is(decided.filter((tool) => tool === 'weather_lookup').length, errors.length, `${what}: each failed pass keeps its decision`);
    const failed = events.filter((e) => e.kind === 'action' && e.tool === 'weather_lookup');
    t.is(failed.length, errors.length, what);
    t.true(failed.every((e) => e.kind === 'action' && e.status === 'failed'), what);
    // Counted, the attempts steer decide to other tools and fail the goal, instead of the same tool until maxCycles.
    t.true(decided.some((tool) => tool !== 'weather_lookup'), `${what}: ${decided.join(', ')}`);
    t.like(events.findLast((e) => e.kind === 'goal'), { change: 'failed' }, what);
    t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended and no goal is active' }, what);
  }
});
