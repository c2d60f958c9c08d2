import test from 'ava';
import type { Skill, Verdict } from '../mind/skills.js';
import type { AgentOptions } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { runGoal, weatherTool } from './helpers/agentRuns.js';

/** Runs one cycle on `goal` in marble time; returns every event. */
const oneCycle = (t: { deepEqual(a: unknown, b: unknown): void }, options: AgentOptions, goal?: string): AgentEvent[] => runGoal(t, { ...options, config: { maxCycles: 1 } }, goal);

const errors = (events: AgentEvent[]) => events.flatMap((e) => (e.kind === 'error' ? [e.message] : []));

test('an async verify is reported as returning a Promise, not a verdict; the action goes on', (t) => {
  const asyncv: Skill = {
    name: 'asyncv',
    trigger: () => true,
    verify: (async () => ({ verdict: 'reject', reason: 'too late' })) as unknown as () => Verdict,
  };
  const events = oneCycle(t, { skills: [asyncv] });
  t.like(events.find((e) => e.kind === 'error'), {
    severity: 'transient',
    message: 'skill "asyncv" failed in verify: verify returned a Promise: it must return its verdict (approve, replace or reject) synchronously, not from an async function',
  });
  t.like(events.find((e) => e.kind === 'action'), { status: 'ok' });
});

test('an async trigger or propose of a skill is reported, not taken for true or for an input; a trigger answering neither true nor false is named', (t) => {
  const asyncTrigger: Skill = { name: 'late', trigger: (async () => true) as unknown as () => boolean, verify: () => ({ verdict: 'reject', reason: 'never' }) };
  const asyncPropose: Skill = { name: 'eager', trigger: () => true, propose: (async () => ({ query: 'x' })) as unknown as () => unknown };
  const vague: Skill = { name: 'vague', trigger: (() => 'yes') as unknown as () => boolean };
  const events = oneCycle(t, { skills: [asyncTrigger, asyncPropose, vague] });
  t.deepEqual(errors(events), [
    'skill "late" failed in trigger: trigger returned a Promise: it must return true or false synchronously, not from an async function',
    'skill "vague" failed in trigger: trigger returned "yes", not true or false',
    'skill "eager" failed in propose: propose returned a Promise: it must return the input (or undefined) synchronously, not from an async function',
  ]);
  const action = events.find((e) => e.kind === 'action');
  t.like(action, { status: 'ok' }, 'not rejected by the skill whose trigger never fired');
  t.false(action?.kind === 'action' && typeof (action.input as { then?: unknown }).then === 'function', 'the promise is not the input');
});

test('a tool whose propose is async fails that attempt, naming the tool, and is left out of plans', (t) => {
  const lateTool = weatherTool({ propose: (async () => ({ city: 'Paris' })) as unknown as () => { city: string } });
  const events = oneCycle(t, { tools: [lateTool] }, 'weather forecast rain temperature for Paris');
  t.like(events.find((e) => e.kind === 'error'), {
    severity: 'transient',
    tool: 'weather_lookup',
    message: 'weather_lookup: propose failed: propose returned a Promise: it must return the input synchronously, not from an async function',
  });
  for (const plan of events.filter((e) => e.kind === 'plan')) t.false(plan.kind === 'plan' && plan.steps.some((s) => s.tool === 'weather_lookup'));
});

test('a verify returning something that is no verdict is named briefly, even when it has no JSON form or is huge; the action goes on', (t) => {
  const bigint: Skill = { name: 'bigint', trigger: () => true, verify: (() => ({ verdict: 'maybe', n: 10n })) as unknown as () => Verdict };
  const huge: Skill = { name: 'huge', trigger: () => true, verify: ((_action: unknown, ctx: unknown) => ctx) as unknown as () => Verdict };
  const events = oneCycle(t, { skills: [bigint, huge] });
  const [first, second] = errors(events);
  t.is(first, 'skill "bigint" failed in verify: verify returned a value with no JSON form (object), not a verdict (approve, replace or reject)');
  t.regex(second!, /^skill "huge" failed in verify: verify returned \{.{100,130}… \(\d+ chars\), not a verdict/);
  t.true(second!.length < 300);
  t.true(events.every((e) => e.kind !== 'error' || e.severity === 'transient'), 'no critical error, no rollback');
  t.like(events.find((e) => e.kind === 'action'), { status: 'ok' });
});
