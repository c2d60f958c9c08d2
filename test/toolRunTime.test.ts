import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncScheduler, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import { actStage } from '../operators/act.js';
import type { Decision } from '../mind/toolSelection.js';
import type { AgentConfigInput } from '../streams/config.js';
import type { Cycle } from '../streams/cycle.js';
import { parentAndChild, running, stillRunning } from './helpers/processes.js';
import { scriptedTool, testRuntime } from './helpers/runtime.js';

/**
 * Acts on a shell_exec decision running a program that starts a child and
 * lives a minute: the pass (as act returns it), the runtime, and the two pids
 * once the program has written them.
 */
async function actOnProgram(scheduler: SchedulerLike, config: AgentConfigInput) {
  const pidFile = join(await mkdtemp(join(tmpdir(), 'ooda-tooltime-')), 'pids.json');
  const runtime = testRuntime(scheduler, config);
  const goal = runtime.mind.addGoal({ description: 'run a program' });
  const decision = { goalId: goal.id, tool: 'shell_exec', input: { command: process.execPath, args: parentAndChild(pidFile, { lifeMs: 60_000 }) }, cycle: 1 } as Decision;
  const cycle: Cycle = { signal: { type: 'tick', depth: 0, meta: {} }, goal, decision, events: [] };
  const pass = Promise.resolve(actStage(runtime, cycle));
  for (let waited = 0; !existsSync(pidFile) && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  const pids = JSON.parse(readFileSync(pidFile, 'utf8')) as number[];
  return { pass, runtime, pids };
}

test("shell_exec's own timeout is scheduler time: on virtual time the program runs until virtual time reaches shellTimeoutMs, then it and its child are killed", async (t) => {
  t.timeout(60_000);
  const scheduler = new VirtualTimeScheduler();
  const { pass, pids } = await actOnProgram(scheduler, { toolTimeoutMs: 0, tools: { shellExec: true, shellTimeoutMs: 600_000 } });
  await new Promise((r) => setTimeout(r, 300));
  t.true(pids.every(running), 'no wall-clock timer stopped it');
  scheduler.flush();
  const cycle = await pass;
  t.is(scheduler.now(), 600_000);
  t.like(cycle.outcome, { status: 'failed' });
  t.regex(cycle.outcome!.summary, /timed out after 600000 ms$/);
  t.deepEqual(await stillRunning(pids), [], 'the program and its child are gone');
});

test('when act gives up on shell_exec after toolTimeoutMs (shorter than shellTimeoutMs), the program and its child are killed, not left running', async (t) => {
  t.timeout(60_000);
  const { pass, pids } = await actOnProgram(asyncScheduler, { toolTimeoutMs: 1_000, tools: { shellExec: true, shellTimeoutMs: 600_000 } });
  const error = await t.throwsAsync(pass);
  t.is(error!.message, 'shell_exec: timed out after 1000 ms');
  t.deepEqual(await stillRunning(pids), [], 'the program and its child are gone');
});

test("http_fetch's timeout is scheduler time: a request to a server on 127.0.0.1 that never answers is aborted when virtual time reaches httpTimeoutMs", async (t) => {
  t.timeout(60_000);
  let asked = 0;
  const server = createServer(() => void asked++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => (server.closeAllConnections(), server.close()));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const scheduler = new VirtualTimeScheduler();
  const runtime = testRuntime(scheduler, { toolTimeoutMs: 0, tools: { httpAllowHosts: [host], httpTimeoutMs: 600_000 } });
  const goal = runtime.mind.addGoal({ description: 'fetch a page' });
  const decision = { goalId: goal.id, tool: 'http_fetch', input: { url: `http://${host}/never` }, cycle: 1 } as Decision;
  const pass = Promise.resolve(actStage(runtime, { signal: { type: 'tick', depth: 0, meta: {} }, goal, decision, events: [] }));
  for (let waited = 0; asked === 0 && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  t.is(asked, 1, 'the request reached the server');
  scheduler.flush();
  const error = await t.throwsAsync(pass);
  t.is(error!.message, `http_fetch: GET http://${host}/never failed: timed out after 600000 ms`);
});

test('when the run abandons the pass while shell_exec runs (the agent stops), the program and its child are killed', async (t) => {
  t.timeout(60_000);
  const { runtime, pids } = await actOnProgram(asyncScheduler, { toolTimeoutMs: 0, tools: { shellExec: true, shellTimeoutMs: 600_000 } });
  runtime.abandon$.next();
  t.deepEqual(await stillRunning(pids), [], 'the program and its child are gone');
});

test("a tool's ctx.timeout follows the scheduler and its timer is released when the run ends: a run that settled leaves nothing scheduled", async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const seen: AbortSignal[] = [];
  const tool = scriptedTool('waits', 0.9, () => ({ ok: true, summary: 'sync' }));
  tool.execute = (_input, ctx) => {
    seen.push(ctx.timeout(10_000));
    return Promise.resolve({ ok: true, summary: 'done' });
  };
  const runtime = testRuntime(scheduler, { toolTimeoutMs: 0 }, [tool]);
  const goal = runtime.mind.addGoal({ description: 'wait a little' });
  const decision = { goalId: goal.id, tool: 'waits', input: { n: 0 }, cycle: 1 } as Decision;
  const cycle = await actStage(runtime, { signal: { type: 'tick', depth: 0, meta: {} }, goal, decision, events: [] });
  t.like(cycle.outcome, { status: 'ok' });
  t.is(scheduler.actions.length, 0, 'the timer is gone');
  scheduler.flush();
  t.false(seen[0]!.aborted, 'and never fires');
});

test("ctx.timeout refuses a time it cannot honour (NaN, negative, past 2^31 - 1 ms, none): the tool's bug, reported naming the value, not a signal that aborts at once", async (t) => {
  for (const ms of [Number.NaN, -1, 2 ** 31, Number.POSITIVE_INFINITY, undefined, '500']) {
    const tool = scriptedTool('waits', 0.9, () => ({ ok: true, summary: 'sync' }));
    tool.execute = (_input, ctx) => {
      ctx.timeout(ms as number);
      return { ok: true, summary: 'not reached' };
    };
    const runtime = testRuntime(new VirtualTimeScheduler(), { toolTimeoutMs: 0 }, [tool]);
    const goal = runtime.mind.addGoal({ description: 'wait a little' });
    const decision = { goalId: goal.id, tool: 'waits', input: { n: 0 }, cycle: 1 } as Decision;
    const error = t.throws(() => actStage(runtime, { signal: { type: 'tick', depth: 0, meta: {} }, goal, decision, events: [] }));
    t.regex(error!.message, new RegExp(`ctx\\.timeout ms: expected a number of ms from 0 to 2147483647, got ${typeof ms === 'string' ? '"500"' : String(ms)}`), String(ms));
  }
});

test('a tool context spread into another object ({ ...ctx }) copies its fields, signal, timeout and effect, never the run scope behind it', (t) => {
  const tool = scriptedTool('spreads', 0.9, () => ({ ok: true, summary: 'sync' }));
  let copied: Record<string, unknown> = {};
  let signal: AbortSignal | undefined;
  tool.execute = (_input, ctx) => {
    copied = { ...ctx };
    signal = ctx.signal;
    return { ok: true, summary: 'copied' };
  };
  const runtime = testRuntime(new VirtualTimeScheduler(), { toolTimeoutMs: 0 }, [tool]);
  const goal = runtime.mind.addGoal({ description: 'copy the context' });
  const decision = { goalId: goal.id, tool: 'spreads', input: { n: 0 }, cycle: 1 } as Decision;
  actStage(runtime, { signal: { type: 'tick', depth: 0, meta: {} }, goal, decision, events: [] });
  t.deepEqual(Object.keys(copied).sort(), ['config', 'effect', 'goal', 'mind', 'now', 'replaying', 'signal', 'timeout']);
  t.is(copied.signal, signal, "the copy's signal is the run's");
});
