import test from 'ava';
import type { Skill, Verdict } from '../mind/skills.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, createTestScheduler, goalStimulus } from '../streams/testing.js';

test('an async verify is reported as returning a Promise, not a verdict; the action goes on', (t) => {
  const asyncv: Skill = {
    name: 'asyncv',
    trigger: () => true,
    verify: (async () => ({ verdict: 'reject', reason: 'too late' })) as unknown as () => Verdict,
  };
  const scheduler = createTestScheduler((a, b) => t.deepEqual(a, b));
  const events: AgentEvent[] = [];
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { skills: [asyncv], config: { maxCycles: 1 } });
    agentEvents(agent, { inputs: [cold('a|', { a: goalStimulus('Find moons of Mars') })] }).subscribe((e) => events.push(e));
  });
  t.like(events.find((e) => e.kind === 'error'), {
    severity: 'transient',
    message: 'skill "asyncv" failed in verify: returned a Promise: verify must return its verdict (approve, replace or reject) synchronously, not from an async function',
  });
  t.like(events.find((e) => e.kind === 'action'), { status: 'ok' });
});
