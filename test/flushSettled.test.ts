import test from 'ava';
import { asyncScheduler, from, VirtualTimeScheduler } from 'rxjs';
import { heartbeat } from '../sources/heartbeat.js';
import type { Tool } from '../mind/tool.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, flushSettled, goalStimulus } from '../streams/testing.js';
import { weatherTool } from './helpers/agentRuns.js';

/** The README's weather tool, whose execute is async. */
const weather = (execute: Tool<{ city: string }>['execute']): Tool<{ city: string }> => weatherTool({ propose: ({ goal }) => ({ city: goal.description.split(' ').at(-1)! }), execute });

async function run(tool: Tool<{ city: string }>): Promise<{ events: AgentEvent[]; done: boolean }> {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [tool], config: { maxCycles: 1 } });
  const events: AgentEvent[] = [];
  let done = false;
  agentEvents(agent, { inputs: [from([goalStimulus('weather forecast rain temperature in Paris')])] }).subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
  await flushSettled(scheduler);
  return { events, done };
}

test('flushSettled: an async tool settles at the virtual time it started, instead of timing out as under a plain flush', async (t) => {
  const { events, done } = await run(
    weather(async ({ city }) => ({ ok: true, summary: `sunny in ${city}`, content: `weather ${city} sunny` })),
  );
  t.true(done, 'the run ended within the flush');
  t.like(events.find((e) => e.kind === 'action'), { tool: 'weather_lookup', status: 'ok', summary: 'sunny in Paris', at: 0 });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached' });

  // The same run under a plain synchronous flush: virtual time runs past the tool's timeout first.
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [weather(async () => ({ ok: true, summary: 'sunny' }))], config: { maxCycles: 1 } });
  const plain: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus('weather forecast rain temperature in Paris')])] }).subscribe((e) => plain.push(e));
  scheduler.flush();
  await new Promise((resolve) => setImmediate(resolve));
  t.like(plain.find((e) => e.kind === 'action'), { status: 'failed', summary: 'weather_lookup: timed out after 30000 ms' });
});

test('flushSettled: a tool that never settles still times out at toolTimeoutMs on virtual time', async (t) => {
  const { events, done } = await run(weather(() => new Promise(() => undefined)));
  t.true(done);
  t.like(events.find((e) => e.kind === 'action'), { status: 'failed', summary: 'weather_lookup: timed out after 30000 ms' });
});

test('flushSettled: maxSteps bounds a run that never ends, and a maxSteps or scheduler it cannot use is refused, naming it, instead of lifting the bound or flushing nothing', async (t) => {
  const endless = (): VirtualTimeScheduler => {
    const scheduler = new VirtualTimeScheduler();
    agentEvents(createTestAgent(scheduler), { ambient: [heartbeat(1000, scheduler)], keepAlive: true }).subscribe();
    return scheduler;
  };
  await t.throwsAsync(flushSettled(endless(), { maxSteps: 20 }), { message: /^flushSettled: still running after 20 steps \(virtual time \d+\)$/ });
  for (const [maxSteps, got] of [[NaN, 'NaN'], [0, '0'], [2.5, '2.5']] as const) {
    const scheduler = endless();
    await t.throwsAsync(flushSettled(scheduler, { maxSteps }), { instanceOf: RangeError, message: `flushSettled maxSteps: expected a whole number of steps ≥ 1, got ${got}` });
    t.is(scheduler.frame, 0, 'nothing ran');
  }
  await t.throwsAsync(flushSettled(endless(), { maxSteps: '20' as never }), { instanceOf: TypeError, message: 'flushSettled maxSteps: expected a whole number of steps ≥ 1, got "20"' });
  await t.throwsAsync(flushSettled(asyncScheduler as never), { instanceOf: TypeError, message: 'flushSettled: expected a VirtualTimeScheduler (with frame, maxFrames and its actions), got an object' });
});
