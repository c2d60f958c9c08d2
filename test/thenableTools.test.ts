import test from 'ava';
import { VirtualTimeScheduler } from 'rxjs';
import { Mind } from '../mind/mind.js';
import { ToolFailure, type ToolOutput } from '../mind/tool.js';
import { runTool } from '../mind/toolRun.js';
import type { Decision } from '../mind/toolSelection.js';
import type { AgentEvent } from '../streams/events.js';
import { createTestAgent, flushSettled } from '../streams/testing.js';
import { scriptedTool } from './helpers/runtime.js';
import { contextFor } from './mindFixtures.js';

/** A thenable that is not a Promise: it settles as `settle` says, or never. */
function thenable(settle?: (resolve: (output: ToolOutput) => void, reject: (error: unknown) => void) => void): PromiseLike<ToolOutput> {
  return {
    then(onFulfilled, onRejected) {
      return new Promise<ToolOutput>((resolve, reject) => settle?.(resolve, reject)).then(onFulfilled, onRejected);
    },
  };
}

/** Every event of an agent whose only tool returns `result`, working on one goal for `maxCycles` passes. */
async function runWith(result: () => PromiseLike<ToolOutput>, config: { maxCycles: number; toolTimeoutMs?: number }): Promise<AgentEvent[]> {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [scriptedTool('lazy', 0.95, result)], config: { ...config, stallThreshold: 1_000_000 } });
  const events: AgentEvent[] = [];
  const events$ = agent.run({ inputs: [] });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  agent.inject({ type: 'goal', description: 'Be lazy', priority: 5, depth: 0, meta: {} });
  await flushSettled(scheduler);
  return events;
}

test('a tool whose execute returns a thenable (not a Promise) is awaited like a Promise', async (t) => {
  const events = await runWith(() => thenable((resolve) => resolve({ ok: true, summary: 'done lazily' })), { maxCycles: 1 });
  t.like(events.find((e) => e.kind === 'action'), { tool: 'lazy', status: 'ok', summary: 'done lazily' });
  t.false(events.some((e) => e.kind === 'error'));
});

test('a thenable that never settles times out after toolTimeoutMs, like a Promise', async (t) => {
  const events = await runWith(() => thenable(), { maxCycles: 1, toolTimeoutMs: 1_000 });
  t.like(events.find((e) => e.kind === 'action'), { tool: 'lazy', status: 'failed', summary: 'lazy: timed out after 1000 ms' });
  t.like(events.find((e) => e.kind === 'error'), { severity: 'transient', tool: 'lazy', message: 'lazy: timed out after 1000 ms' });
});

test("a thenable's rejection and resolved value are checked like a Promise's", async (t) => {
  const mind = new Mind({ tools: [scriptedTool('lazy', 0.95, () => thenable((_, reject) => reject(new Error('disk gone')))), scriptedTool('empty', 0.95, () => thenable((resolve) => resolve(undefined as unknown as ToolOutput)))] });
  const goal = mind.addGoal({ description: 'Be lazy' });
  const run = (tool: string) => Promise.resolve().then(() => runTool({ goalId: goal.id, tool, input: { n: 0 } } as Decision, contextFor(mind, goal)));
  const rejected = await t.throwsAsync(run('lazy'), { instanceOf: ToolFailure });
  t.is(rejected!.message, 'lazy: disk gone');
  const empty = await t.throwsAsync(run('empty'), { instanceOf: ToolFailure });
  t.is(empty!.message, 'empty: returned no ToolOutput ({ ok, summary })');
});
