import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { from, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import type { Tool } from '../mind/tool.js';
import { AgentConfig, createAgent, Persistence, replaySession, SqliteStore, type AgentEvent } from '../streams/index.js';
import { agentEvents, createTestAgent, flushSettled, goalStimulus } from '../streams/testing.js';
import { weatherTool } from './helpers/agentRuns.js';

const zip = promisify(gzip);
/** Work on the thread pool that needs several event-loop turns: five compressions in a row. */
const threadPoolWork = async (text: string): Promise<number> => {
  let size = 0;
  for (let i = 0; i < 5; i++) size = (await zip(Buffer.from(`${text} ${i}`))).length;
  return size;
};
const GOAL = 'weather forecast rain temperature in Paris';
const weather = (execute: Tool<{ city: string }>['execute']): Tool<{ city: string }> => weatherTool({ propose: ({ goal }) => ({ city: goal.description.split(' ').at(-1)! }), execute });

async function action(tool: Tool<{ city: string }>): Promise<AgentEvent> {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [tool], config: { maxCycles: 1 } });
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus(GOAL)])] }).subscribe((e) => events.push(e));
  await flushSettled(scheduler);
  return events.find((e) => e.kind === 'action')!;
}

test('flushSettled waits for a tool\u2019s real work (its ctx.effect file read, thread-pool work outside any effect): the tool settles at the virtual time it started, every time', async (t) => {
  const reads = weather(async ({ city }, ctx) => {
    const text = await ctx.effect(`read the forecast for ${city}`, () => readFile(new URL(import.meta.url), 'utf8'));
    return { ok: true, summary: `read ${text.length > 0 ? 'a forecast' : 'nothing'} for ${city}` };
  });
  const compresses = weather(async ({ city }) => ({ ok: true, summary: `compressed ${city} to ${await threadPoolWork(city)} bytes` }));
  for (let run = 0; run < 10; run++) {
    t.like(await action(reads), { status: 'ok', summary: 'read a forecast for Paris', at: 0 }, `file read, run ${run}`);
    t.like(await action(compresses), { status: 'ok', at: 0 }, `thread-pool work, run ${run}`);
  }
});

test('real work in an effect holds the clock even while the tool also waits on a ctx.timeout deadline for it; a tool that waits on ctx.timeout alone lets the clock run to it', async (t) => {
  const withDeadline = weather(async ({ city }, ctx) => {
    const text = await ctx.effect('read with a deadline', () => readFile(new URL(import.meta.url), { encoding: 'utf8', signal: ctx.timeout(5000) }));
    return { ok: true, summary: `${text.length > 0 ? 'read' : 'empty'} for ${city}` };
  });
  t.like(await action(withDeadline), { status: 'ok', summary: 'read for Paris' }, 'not aborted by a deadline the virtual clock jumped to');

  let settledAt = -1;
  const scheduler = new VirtualTimeScheduler();
  const sleeper = weather(async ({ city }, ctx) => {
    await threadPoolWork(city);
    await new Promise((resolve) => ctx.timeout(250).addEventListener('abort', resolve));
    settledAt = scheduler.now();
    return { ok: true, summary: 'woke up' };
  });
  const agent = createTestAgent(scheduler, { tools: [sleeper], config: { maxCycles: 1 } });
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus(GOAL)])] }).subscribe((e) => events.push(e));
  await flushSettled(scheduler);
  t.like(events.find((e) => e.kind === 'action'), { status: 'ok', summary: 'woke up' });
  t.is(settledAt, 250, 'it woke at its virtual deadline');
});

test('a time limit taken from ctx.timeout that nothing listens to (checked by aborted) does not stop the clock from waiting for the run\u2019s real work; a run that only waits for act to give up lets the clock run to toolTimeoutMs', async (t) => {
  const limited = weather(async ({ city }, ctx) => {
    const deadline = ctx.timeout(5000);
    const size = await threadPoolWork(city);
    return { ok: !deadline.aborted, summary: `compressed ${city} to ${size} bytes within its limit` };
  });
  for (let run = 0; run < 5; run++) t.like(await action(limited), { status: 'ok', at: 0 }, `run ${run}`);

  // Were the clock held for it, this run would wait out realWorkMs, far past the test's own timeout.
  const scheduler = new VirtualTimeScheduler();
  const waiting = weather((_input, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error))));
  const agent = createTestAgent(scheduler, { tools: [waiting], config: { maxCycles: 1, toolTimeoutMs: 1000 } });
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus(GOAL)])] }).subscribe((e) => events.push(e));
  await flushSettled(scheduler, { realWorkMs: 600_000 });
  t.like(events.find((e) => e.kind === 'action'), { status: 'failed', summary: 'weather_lookup: timed out after 1000 ms' });
});

test('flushSettled realWorkMs is checked, naming it', async (t) => {
  await t.throwsAsync(flushSettled(new VirtualTimeScheduler(), { realWorkMs: -1 }), { instanceOf: RangeError, message: 'flushSettled realWorkMs: expected a number of ms from 0 to 2147483647, got -1' });
});

/** The reviewers' case: a tool awaiting pure thread-pool work, which no effect records, under a time limit of its own, on a store. */
const hasher: Tool<{ text: string }> = {
  name: 'text_hasher',
  description: 'Compress and hash a text',
  keywords: ['hash', 'digest', 'checksum', 'compress', 'text'],
  danger: 'safe',
  capabilities: [],
  input: z.object({ text: z.string() }),
  scoring: { kind: 'semantic', threshold: 0.5, multiplier: 0.9 },
  propose: ({ goal }) => ({ text: goal.description }),
  async execute({ text }, ctx) {
    const deadline = ctx.timeout(5000);
    const size = await threadPoolWork(text);
    return { ok: !deadline.aborted, summary: `compressed to ${size} bytes` };
  },
};

test('a session whose tool awaited thread-pool work replays identically every time: the replay\u2019s clock waits for that work as the live run\u2019s time did', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'real-work-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'agent.db');
  const options = { tools: [hasher] };
  const config = AgentConfig.parse({ maxCycles: 3, heartbeatMs: 0 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 's1', config, log: () => undefined, agent: options });
  const agent = createAgent({ ...persistence.agentOptions(options), config: persistence.config, session: 's1' });
  const events$ = agent.run({ inputs: [from([{ source: 'app', value: { type: 'goal', description: 'hash digest checksum compress text' } }])] });
  persistence.attach(agent, events$);
  const done = new Promise<void>((resolve) => events$.subscribe({ complete: resolve }));
  events$.connect();
  await done;
  await persistence.close('done');
  const store = await SqliteStore.open(db);
  t.teardown(() => store.close());
  for (let replay = 0; replay < 8; replay++) t.like(await replaySession(store, 's1', options), { identical: true }, `replay ${replay}`);
});
