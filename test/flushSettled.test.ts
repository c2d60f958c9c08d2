import test from 'ava';
import { from, VirtualTimeScheduler } from 'rxjs';
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
