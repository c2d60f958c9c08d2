import test from 'ava';
import type { Skill, Verdict } from '../mind/skills.js';
import type { AgentOptions } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { runGoal, weatherTool } from './helpers/agentRuns.js';

/** Runs one cycle on `goal` in marble time; returns every event. */
const oneCycle = (t: { deepEqual(a: unknown, b: unknown): void }, options: AgentOptions, goal?: string): AgentEvent[] => runGoal(t, { ...options, config: { maxCycles: 1 } }, goal);

const errors = (events: AgentEvent[]) => events.flatMap((e) => (e.kind === 'error' ? [`${e.severity}: ${e.message}`] : []));

/** An input no event could carry: it refers to itself. */
const circular = (): Record<string, unknown> => {
  const input: Record<string, unknown> = { city: 'Paris' };
  input.self = input;
  return input;
};

test('a tool that proposes an input that is not JSON (a BigInt, a circular structure) fails that attempt, naming the tool and the problem; every event can be written', (t) => {
  const cases: [unknown, string][] = [
    [{ city: 10n }, 'it holds a BigInt'],
    [circular(), 'it refers to itself (a circular structure)'],
  ];
  for (const [input, problem] of cases) {
    const events = oneCycle(t, { tools: [weatherTool({ propose: () => input as { city: string } })] }, 'weather forecast rain temperature for Paris');
    t.deepEqual(errors(events), [`transient: weather_lookup: propose failed: the input must be JSON (it is recorded in the decision event and the store), but ${problem}`]);
    t.notThrows(() => events.map((e) => JSON.stringify(e)));
  }
});

test('a skill that proposes or substitutes an input that is not JSON is isolated, naming it; the input is left as it was and every event can be written', (t) => {
  const proposing: Skill = { name: 'bigint', trigger: () => true, propose: () => ({ city: 10n }) };
  const replacing: Skill = { name: 'loopy', trigger: () => true, verify: (): Verdict => ({ verdict: 'replace', input: circular(), reason: 'mine' }) };
  const events = oneCycle(t, { tools: [weatherTool()], skills: [proposing, replacing] }, 'weather forecast rain temperature for Paris');
  t.deepEqual(errors(events), [
    'transient: skill "bigint" failed in propose: the input must be JSON (it is recorded in the decision event and the store), but it holds a BigInt; the input is left as it was',
    'transient: skill "loopy" failed in verify: the input must be JSON (it is recorded in the decision event and the store), but it refers to itself (a circular structure); the input is left as it was',
  ]);
  t.like(events.find((e) => e.kind === 'action'), { tool: 'weather_lookup', status: 'ok', input: { city: 'Paris' } });
  t.notThrows(() => events.map((e) => JSON.stringify(e)));
});
