import test from 'ava';
import { NEVER, pipe, switchMap, VirtualTimeScheduler } from 'rxjs';
import { stage } from '../operators/stage.js';
import type { ToolOutput } from '../mind/tool.js';
import { AgentConfig, type AgentConfigInput } from '../streams/config.js';
import type { AgentEvent } from '../streams/events.js';
import { createTestAgent } from '../streams/testing.js';
import { scriptedTool } from './helpers/runtime.js';

/** Runs virtual time to the end, letting settled promises run between flushes. */
async function drain(scheduler: VirtualTimeScheduler): Promise<void> {
  for (let i = 0; i < 50; i++) {
    scheduler.flush();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const hanging = () => scriptedTool('hang', 0.95, () => new Promise<ToolOutput>(() => {}));

/** An agent with the never-settling tool, connected on virtual time, and a goal it will work on with it. */
function hangingRun(config: AgentConfigInput, keepAlive = false) {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [hanging()], config: { ...config, stallThreshold: 1_000_000 } });
  const events$ = agent.run({ inputs: [], keepAlive });
  const run = { scheduler, agent, events: [] as AgentEvent[], completed: false };
  events$.subscribe({ next: (e) => run.events.push(e), complete: () => (run.completed = true) });
  events$.connect();
  agent.inject({ type: 'goal', description: 'Hang around', priority: 5, depth: 0, meta: {} });
  return run;
}

test('a tool that never settles fails transiently after toolTimeoutMs of scheduler time, and the agent goes on', async (t) => {
  const run = hangingRun({ maxCycles: 3, toolTimeoutMs: 1_000 });
  const { events } = run;
  await drain(run.scheduler);
  t.true(run.completed, 'the run ends');
  const timeouts = events.filter((e) => e.kind === 'error' && e.message === 'hang: timed out after 1000 ms');
  t.true(timeouts.length >= 2, 'every hanging run of the tool times out');
  t.like(timeouts[0], { severity: 'transient', tool: 'hang', rolledBack: false });
  t.like(events.find((e) => e.kind === 'action'), { tool: 'hang', status: 'failed', summary: 'hang: timed out after 1000 ms' });
  // A pass happens at the instant it began; the pass after the second hang begins once it timed out, 1000 ms later.
  t.deepEqual([...new Set(events.filter((e) => e.kind === 'observation').map((e) => e.at))], [0, 1_000]);
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
});

test('agent.stop() completes the run while a tool is in flight (no timeout): the pass is abandoned and reported', async (t) => {
  const run = hangingRun({ toolTimeoutMs: 0 }, true);
  const { events } = run;
  await drain(run.scheduler);
  t.false(run.completed, 'the tool is still running');
  t.like(events.at(-1), { kind: 'goal', change: 'added' }, 'the pass that decided on the tool is waiting on it');
  run.agent.stop('SIGTERM');
  await drain(run.scheduler);
  t.true(run.completed, 'the run ends');
  t.like(events.at(-2), {
    kind: 'error',
    severity: 'transient',
    message: 'abandoned: the run stopped while the pass was waiting on tool hang (for goal goal-1); its result is discarded',
    tool: 'hang',
    signalType: 'tick',
  });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'SIGTERM' });
});

test('a pass abandoned while a stage of a custom cycle waits names no tool, even after a tool timed out earlier', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  let ticks = 0;
  const agent = createTestAgent(scheduler, {
    tools: [hanging()],
    config: { toolTimeoutMs: 1_000, stallThreshold: 1_000_000 },
    // The first tick's tool times out; the second tick waits in a stage that never settles.
    cycle: (s) => pipe(s.observe, s.orient, s.decide, stage((cycle) => (cycle.signal.type === 'tick' && ++ticks === 2 ? new Promise<never>(() => {}) : cycle)), s.act),
  });
  const events: AgentEvent[] = [];
  const events$ = agent.run({ inputs: [], keepAlive: true });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  agent.inject({ type: 'goal', description: 'Hang around', priority: 5, depth: 0, meta: {} });
  await drain(scheduler);
  t.true(events.some((e) => e.kind === 'error' && e.message === 'hang: timed out after 1000 ms'));
  agent.stop('SIGTERM');
  await drain(scheduler);
  const abandoned = events.at(-2) as Extract<AgentEvent, { kind: 'error' }>;
  t.like(abandoned, { kind: 'error', message: "abandoned: the run stopped while the pass was waiting on the cycle operator (a stage's promise, or an operator that has not emitted); its result is discarded" });
  t.false('tool' in abandoned);
  // What the pass recorded before it waited is reported, as for a pass waiting on a tool.
  t.deepEqual(events.slice(-5, -2).map((e) => `${e.kind}@${e.cycle}`), ['observation@2', 'orientation@2', 'decision@3']);
});

test('a pass abandoned while an operator of a custom cycle holds it keeps the events it recorded: the goal it took in is reported', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { cycle: (s) => pipe(s.observe, s.orient, s.decide, switchMap(() => NEVER), s.act) });
  const events: AgentEvent[] = [];
  const events$ = agent.run({ inputs: [], keepAlive: true });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  agent.inject({ type: 'goal', description: 'Find moons of Mars' });
  await drain(scheduler);
  agent.stop('SIGTERM');
  await drain(scheduler);
  // The goal's pass, then the driver's tick queued behind it: each is abandoned with what it recorded.
  t.deepEqual(events.map((e) => e.kind), ['session', 'perceived', 'goal', 'error', 'observation', 'orientation', 'decision', 'error', 'session']);
  t.like(events[2], { kind: 'goal', goalId: 'goal-1', change: 'added' });
  t.like(events[3], { kind: 'error', signalType: 'goal', message: "abandoned: the run stopped while the pass was waiting on the cycle operator (a stage's promise, or an operator that has not emitted); its result is discarded" });
});

test('toolTimeoutMs defaults to 30 s and is capped like the other periods', (t) => {
  t.is(AgentConfig.parse({}).toolTimeoutMs, 30_000);
  t.is(AgentConfig.parse({ toolTimeoutMs: 2_147_483_647 }).toolTimeoutMs, 2_147_483_647);
  t.false(AgentConfig.safeParse({ toolTimeoutMs: 2_147_483_648 }).success);
});

test('a pass abandoned while its tool runs keeps the events it recorded before the wait: its decision is reported before the abandonment', async (t) => {
  const run = hangingRun({ toolTimeoutMs: 0 }, true);
  await drain(run.scheduler);
  run.agent.stop('SIGTERM');
  await drain(run.scheduler);
  const kinds = run.events.map((e) => e.kind);
  const decision = run.events.find((e) => e.kind === 'decision');
  t.like(decision, { tool: 'hang', goalId: 'goal-1', cycle: 1 }, 'the decision that chose the tool (the mind counted its cycle) is in the stream');
  t.true(kinds.indexOf('observation') < kinds.indexOf('decision'));
  t.deepEqual(kinds.slice(kinds.indexOf('decision')), ['decision', 'error', 'session']);
});
