import test from 'ava';
import { lastValueFrom, of, toArray } from 'rxjs';
import { z } from 'zod';
import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { policySkill } from '../mind/policySkill.js';
import { Psyche } from '../mind/psyche.js';
import type { Skill } from '../mind/skills.js';
import type { Danger, Tool } from '../mind/tool.js';
import { parseBreakdown } from '../mind/utility.js';
import { createAgent, type AgentOptions } from '../streams/createAgent.js';
import type { AgentEvent, EventOf } from '../streams/events.js';
import { goalStimulus } from '../streams/testing.js';

interface Probe {
  tool: Tool;
  runs: unknown[];
}

/** A core-scored tool that records the inputs it ran with. */
function probe(name: string, base: number, input: unknown, options: { danger?: Danger; keywords?: string[]; ok?: boolean } = {}): Probe {
  const runs: unknown[] = [];
  const tool: Tool = {
    name,
    description: `${name} (test tool)`,
    keywords: options.keywords ?? ['find', 'search'],
    danger: options.danger ?? 'safe',
    capabilities: [],
    input: z.unknown(),
    scoring: { kind: 'core', base: () => base },
    propose: () => input,
    execute: (given) => {
      runs.push(given);
      return { ok: options.ok ?? true, summary: `${name} ran` };
    },
  };
  return { tool, runs };
}

async function run(options: AgentOptions, goal = 'find the moons of Mars'): Promise<AgentEvent[]> {
  const agent = createAgent({ session: 't', ...options, config: { heartbeatMs: 0, ...options.config } });
  const events$ = agent.run({ inputs: [of(goalStimulus(goal))] });
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  return all;
}

const ofKind = <K extends AgentEvent['kind']>(events: AgentEvent[], kind: K) => events.filter((e): e is EventOf<K> => e.kind === kind);

test('a shadow veto blocks shell_exec with "rm -rf" in its input: a vetoed action, and the tool never runs', async (t) => {
  const shell = probe('shell_exec', 0.99, { command: 'rm  -RF /tmp/scratch' }, { danger: 'dangerous', keywords: ['shell', 'command', 'run'] });
  const events = await run({ mind: new Mind({ tools: [shell.tool] }), config: { maxCycles: 1 } });
  const [action] = ofKind(events, 'action');
  t.is(action!.tool, 'shell_exec');
  t.is(action!.status, 'vetoed');
  t.regex(action!.summary, /shadow veto "recursive-delete": recursive forced delete/);
  t.deepEqual(shell.runs, []);
  // The default shadow's bias discourages dangerous tools in the score too.
  const [decision] = ofKind(events, 'decision');
  t.is(parseBreakdown(decision!.breakdown)!.parts.archetype, -0.03);
});

test('archetype weights bias the score (±0.07) and bias patterns lower it; the psyche is saved with the mind', (t) => {
  const mind = new Mind();
  const psyche = Psyche.attach(mind, {
    archetypes: [
      { name: 'sage', weight: 1, tools: ['kg_query'] },
      { name: 'guardian', weight: 0.25, tools: ['user_interact'] },
    ],
    shadow: [{ name: 'no-fetch', kind: 'bias', tool: 'http_fetch', penalty: 0.04, reason: 'test' }],
  });
  const goal = mind.addGoal({ description: 'find moons' });
  const tool = (name: string) => probe(name, 0.5, {}).tool;
  t.is(mind.adjusters.archetype(goal, tool('kg_query')), 0.07);
  t.is(mind.adjusters.archetype(goal, tool('user_interact')), -0.035);
  t.is(mind.adjusters.archetype(goal, tool('http_fetch')), -0.04);
  t.is(mind.adjusters.archetype(goal, tool('other')), 0);
  t.is(psyche.dominant, 'sage');

  const restored = Mind.fromJSON(JSON.parse(JSON.stringify(mind.toJSON())));
  const again = Psyche.attach(restored);
  t.deepEqual(again.toJSON(), psyche.toJSON());
  t.is(restored.adjusters.archetype(goal, tool('kg_query')), 0.07);
});

test('psyche weights move with the tools\' success rates on reflection, clamped, and the dominant archetype is recomputed', (t) => {
  const mind = new Mind();
  const psyche = Psyche.attach(mind, {
    archetypes: [
      { name: 'sage', weight: 0.6, tools: ['kg_query'] },
      { name: 'explorer', weight: 0.5, tools: ['http_fetch'] },
      { name: 'guardian', weight: 0.5, tools: ['user_interact'] },
    ],
  });
  const evolution = psyche.evolve(new Map([['kg_query', 0], ['http_fetch', 1]]));
  const weight = (name: string) => evolution.weights.find((w) => w.name === name)!;
  t.deepEqual(weight('sage'), { name: 'sage', before: 0.6, after: 0.5 });
  t.deepEqual(weight('explorer'), { name: 'explorer', before: 0.5, after: 0.6 });
  t.deepEqual(weight('guardian'), { name: 'guardian', before: 0.5, after: 0.5 }, 'no run, no change');
  t.is(evolution.dominant, 'explorer');
  for (let i = 0; i < 10; i++) psyche.evolve(new Map([['kg_query', 0], ['http_fetch', 1]]));
  t.is(psyche.archetypes.find((a) => a.name === 'explorer')!.weight, 0.95, 'clamped at the top');
  t.is(psyche.archetypes.find((a) => a.name === 'sage')!.weight, 0.05, 'clamped at the bottom');
});

test('on reflection in a running agent, the archetype of a succeeding tool gains and that of a failing tool loses weight', async (t) => {
  const good = probe('kg_query', 0.7, {}, { ok: true });
  const bad = probe('user_interact', 0.7, {}, { ok: false, keywords: ['ask', 'user'] });
  const mind = new Mind({ tools: [good.tool, bad.tool], config: MindConfig.parse({ stallThreshold: 50 }) });
  const events = await run({ mind, config: { maxCycles: 5, reflection: { interval: 5, minCyclesWorked: 0 } } });
  const [reflection] = ofKind(events, 'reflection');
  t.truthy(reflection, 'reflection fired after 5 cycles');
  const weight = (name: string) => reflection!.psyche!.weights.find((w) => w.name === name)!;
  t.true(weight('sage').after > weight('sage').before, 'kg_query always succeeded');
  t.true(weight('guardian').after < weight('guardian').before, 'user_interact always failed');
  t.deepEqual(
    reflection!.tools.map((x) => [x.tool, x.rate]),
    [['kg_query', 1], ['user_interact', 0]],
  );
});

test('a priority-50 verifier rejects an action, and the rejection reaches the next cycle, whose decision avoids the tool', async (t) => {
  const alpha = probe('alpha', 0.9, { q: 'moons' });
  const beta = probe('beta', 0.7, { q: 'moons' });
  const order: string[] = [];
  const low: Skill = { name: 'low', trigger: () => true, verify: () => (order.push('low'), { verdict: 'approve' }) };
  const veto: Skill = {
    name: 'no-alpha',
    priority: 50,
    trigger: ({ signal }) => signal.depth === 0,
    verify: (action) => (order.push('no-alpha'), action.tool === 'alpha' ? { verdict: 'reject', reason: 'alpha is off limits' } : { verdict: 'approve' }),
  };
  const events = await run({ mind: new Mind({ tools: [alpha.tool, beta.tool] }), skills: [low, veto], config: { maxCycles: 2 } });
  const actions = ofKind(events, 'action');
  t.deepEqual(actions.map((a) => [a.tool, a.status]), [['alpha', 'vetoed'], ['beta', 'ok']]);
  t.regex(actions[0]!.summary, /rejected by skill "no-alpha": alpha is off limits/);
  t.deepEqual(alpha.runs, []);
  // Cycle 1: priority 50 runs first and its rejection stops the rest; cycle 2 (depth 1) triggers only "low".
  t.deepEqual(order, ['no-alpha', 'low']);
  // The next cycle is the rejection fed back at depth 1.
  const decisions = ofKind(events, 'decision');
  const observations = ofKind(events, 'observation');
  t.is(observations.length, 2);
  const second = events.indexOf(decisions[1]!);
  t.true(events.slice(events.indexOf(actions[0]!), second).some((e) => e.kind === 'observation'));
  t.is(decisions[1]!.tool, 'beta');
  t.deepEqual(decisions[1]!.alternatives, [{ tool: 'alpha', score: 0.43 }], 'alpha: 0.9 − 0.4 recency − 0.07 avoided');
  t.is(decisions[1]!.cycle, 2);
  const feedbackMemory = events.find((e) => e.kind === 'observation' && e.cycle === 1) as EventOf<'observation'>;
  t.true(feedbackMemory.recent.some((line) => line.includes('feedback: rejected by skill "no-alpha": alpha is off limits')));
});

test('a skill that throws "CRITICAL BRAIN FAILURE" is reported in an error event, the others keep working and the next signal is handled normally', async (t) => {
  const tool = probe('kg_query', 0.8, { symbol: 'mars' });
  const evil: Skill = {
    name: 'evil-skill',
    priority: 100,
    trigger: () => true,
    propose: () => {
      throw new Error('CRITICAL BRAIN FAILURE');
    },
  };
  const replacer: Skill = {
    name: 'limiter',
    trigger: () => true,
    verify: (action) => ({ verdict: 'replace', input: { ...(action.input as object), limit: 5 }, reason: 'keep queries small' }),
  };
  const events = await run({ mind: new Mind({ tools: [tool.tool], config: MindConfig.parse({ stallThreshold: 50 }) }), skills: [evil, replacer], config: { maxCycles: 2 } });
  const errors = ofKind(events, 'error');
  t.is(errors.length, 2, 'one per cycle');
  t.regex(errors[0]!.message, /skill "evil-skill" failed in propose: CRITICAL BRAIN FAILURE/);
  t.is(errors[0]!.skill, 'evil-skill');
  t.is(errors[0]!.rolledBack, false);
  t.deepEqual(ofKind(events, 'action').map((a) => a.status), ['ok', 'ok'], 'both cycles acted');
  t.deepEqual(tool.runs, [{ symbol: 'mars', limit: 5 }, { symbol: 'mars', limit: 5 }], 'the other skill kept working');
  const replaced = ofKind(events, 'decision').filter((d) => /input replaced by skill "limiter": keep queries small/.test(d.reason));
  t.is(replaced.length, 2);
});

test('shell_exec, enabled, with a destructive command line in its argument array: vetoed or rejected, and the command never runs', async (t) => {
  const victim = mkdtempSync(join(tmpdir(), 'ooda-victim-'));
  mkdirSync(join(victim, 'sub'));
  const cases: [string, RegExp][] = [
    [`rm -rf ${victim}`, /shadow veto "recursive-delete"/],
    [`rm -fr ${victim}`, /shadow veto "recursive-delete"/],
    [`rm -r -f ${victim}`, /rejected by skill "policy": destructive action \(forced or recursive file removal\)/],
    [`chmod 777 ${victim}`, /rejected by skill "policy": destructive action \(opening permissions to everyone\)/],
  ];
  for (const [line, why] of cases) {
    const events = await run({ config: { maxCycles: 1, tools: { shellExec: true } } }, `Run the shell command \`${line}\` and execute it`);
    const [action] = ofKind(events, 'action');
    t.is(action?.tool, 'shell_exec', line);
    t.like(action, { status: 'vetoed' }, line);
    t.regex(action!.summary, why, line);
  }
  t.true(existsSync(join(victim, 'sub')), 'the folder survived');
  t.is(statSync(victim).mode & 0o777, 0o700, 'its permissions are unchanged');
  // A forced push is refused the same way (checked on the input alone: it must never run in a test).
  const mind = new Mind();
  const goal = mind.addGoal({ description: 'publish the work' });
  const action = { goalId: goal.id, tool: 'shell_exec', input: { command: 'git', args: ['push', '--force', 'origin', 'main'] } };
  const push = policySkill.verify!(action, { mind, goal, signal: { type: 'tick', depth: 0 }, action, now: () => 0 });
  t.like(push, { verdict: 'reject', reason: 'destructive action (destroying git history or work) in shell_exec input' });
});

test('the policy skill rejects destructive actions that the shadow lets through', async (t) => {
  const sql = probe('db_exec', 0.9, { sql: 'TRUNCATE TABLE users' }, { keywords: ['sql', 'database'] });
  const events = await run({ mind: new Mind({ tools: [sql.tool] }), config: { maxCycles: 1 } });
  const [action] = ofKind(events, 'action');
  t.is(action!.status, 'vetoed');
  t.regex(action!.summary, /rejected by skill "policy": destructive action \(truncating a table\) in db_exec input/);
  t.deepEqual(sql.runs, []);
});

test('a verdict that gives no reason still counts, said to give none; a priority that is not a finite number is refused', async (t) => {
  const alpha = probe('alpha', 0.9, { q: 'moons' });
  const mute: Skill = { name: 'mute', trigger: () => true, verify: () => ({ verdict: 'reject' }) as never };
  const events = await run({ mind: new Mind({ tools: [alpha.tool] }), skills: [mute], config: { maxCycles: 1 } });
  t.is(ofKind(events, 'action')[0]!.summary, 'vetoed: rejected by skill "mute": no reason given');
  t.deepEqual(alpha.runs, []);
  for (const priority of [Number.NaN, 'high']) {
    t.throws(() => createAgent({ skills: [{ name: 'odd', priority: priority as number, trigger: () => true }] }), {
      message: `skills[0]: skill "odd": priority must be a finite number (got ${priority === 'high' ? '"high"' : 'NaN'})`,
    });
  }
});

test('a skill definition that is not one is refused as it is registered, naming the skill and the problem: a misspelt verify would never verify', (t) => {
  const cases: [unknown, string][] = [
    [{ name: 'guard', trigger: () => true, verfy: () => ({ verdict: 'reject', reason: 'no' }) }, 'skills[0]: skill "guard": unknown key "verfy" (a skill takes name, priority, trigger, propose, verify)'],
    [{ name: 'guard', trigger: () => true, verify: 42 }, 'skills[0]: skill "guard": verify must be a function (got 42)'],
    [{ name: 'guard', trigger: () => true, propose: 'moons' }, 'skills[0]: skill "guard": propose must be a function (got "moons")'],
    [{ name: 42, trigger: () => true }, 'skills[0]: a skill needs a name (a non-empty string, got 42)'],
  ];
  for (const [skill, message] of cases) t.throws(() => createAgent({ skills: [skill as Skill] }), { message });
  t.throws(() => createAgent().skills.register({ name: 'late', trigger: () => true, verfy: () => ({ verdict: 'approve' }) } as Skill), { message: /^skill "late": unknown key "verfy"/ });
  // An instance of a class may keep its own state beside the keys.
  class Counting implements Skill {
    readonly name = 'counting';
    seen = 0;
    trigger(): boolean {
      this.seen++;
      return false;
    }
  }
  t.notThrows(() => createAgent({ skills: [new Counting()] }));
});
