import test from 'ava';
import { NEVER, Subject, VirtualTimeScheduler } from 'rxjs';
import { Mind } from '../mind/mind.js';
import type { ToolOutput } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import type { Agent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import type { InjectableSignal, Stimulus } from '../streams/signals.js';
import { createTestAgent } from '../streams/testing.js';
import { scriptedTool } from './helpers/runtime.js';

const goal = (description: string): InjectableSignal => ({ type: 'goal', description, criteria: '', priority: 5, depth: 0, meta: {} });

/** Starts a run and connects it; its events are collected as they come. */
function start(agent: Agent) {
  const events: AgentEvent[] = [];
  const events$ = agent.run();
  events$.subscribe((e) => events.push(e));
  const connection = events$.connect();
  return { events, connection };
}

test('a second run() while one is live throws, and the live run is unharmed', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 2 } });
  const first = start(agent);
  t.throws(() => agent.run(), { message: /^agent is already running: run\(\) was called while an earlier run of session "test" is live; stop it/ });
  t.true(agent.inject(goal('Find moons of Mars')), 'inject still reaches the live run');
  scheduler.flush();
  t.like(first.events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 2 });
  agent.run();
  t.throws(() => agent.run(), { message: /already running/ }, 'a run not yet connected is live too');
});

test('two agents cannot run one mind at the same time: the second run() throws, naming the session that holds it; one after the other is fine', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const mind = new Mind({ tools: builtinTools() });
  const first = createTestAgent(scheduler, { mind, session: 'first', config: { maxCycles: 2 } });
  const second = createTestAgent(scheduler, { mind, session: 'second', config: { maxCycles: 4 } });
  const running = start(first);
  t.throws(() => second.run(), { message: /^this mind is being run by another agent \(session "first"\) right now: two agents cannot run one mind at the same time/ });
  first.inject(goal('Find moons of Mars'));
  scheduler.flush();
  t.like(running.events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 2 });
  const next = start(second);
  scheduler.flush();
  t.like(next.events.at(-1), { kind: 'session', session: 'second', state: 'stopped', reason: 'max cycles reached', cycles: 4 });
});

test('a run after a finished one continues the session: seq after the last event, cycles where they were', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 4 }, firstSeq: 10 });
  const first = start(agent);
  agent.inject(goal('Find moons of Mars'));
  scheduler.flush();
  const cycles = agent.mind.cycle;
  t.true(cycles > 0);
  t.like(first.events.at(-1), { kind: 'session', state: 'stopped' });
  t.false(agent.inject(goal('Too late')), 'a finished run accepts nothing');

  const second = start(agent);
  t.true(agent.inject(goal('Find moons of Jupiter')), 'inject reaches the new run');
  scheduler.flush();
  const seqs = [...first.events, ...second.events].map((e) => e.seq);
  t.is(seqs[0], 10);
  t.deepEqual(seqs, seqs.map((_, i) => 10 + i), 'one strictly increasing sequence over both runs');
  t.like(second.events[0], { kind: 'session', state: 'started', cycle: cycles });
  t.true(second.events.some((e) => e.kind === 'goal' && e.description === 'Find moons of Jupiter'));
  t.like(second.events.at(-1), { kind: 'session', state: 'stopped' });
});

test('the next run may start as soon as the last one completes, or once its connection is unsubscribed', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 1 } });
  const events$ = agent.run();
  let next: ReturnType<typeof start> | undefined;
  events$.subscribe({ complete: () => (next = start(agent)) });
  events$.connect();
  agent.inject(goal('Find moons of Mars'));
  scheduler.flush();
  t.truthy(next, 'run() from the completion callback is allowed');

  next!.connection.unsubscribe();
  t.false(agent.inject(goal('Late')), 'an unsubscribed run accepts nothing');
  const third = start(agent);
  scheduler.flush();
  t.is(third.events[0]!.seq, next!.events.at(-1)!.seq + 1);
  t.like(third.events.at(-1), { kind: 'session', state: 'stopped' });
});

test('a run started as the last one completes is not hit by that run giving up its waiting passes', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  const hanging = scriptedTool('hang', 0.95, () => new Promise<ToolOutput>(() => {}));
  const agent = createTestAgent(scheduler, { tools: [hanging], config: { toolTimeoutMs: 0, stallThreshold: 1_000_000 } });
  const events$ = agent.run({ keepAlive: true });
  const second: AgentEvent[] = [];
  events$.subscribe({
    complete: () => {
      const next$ = agent.run({ keepAlive: true });
      next$.subscribe((e) => second.push(e));
      next$.connect();
      agent.inject(goal('Hang around'));
      agent.inject({ type: 'tick', depth: 0, meta: {} });
    },
  });
  events$.connect();
  agent.stop('first run over');
  for (let i = 0; i < 5; i++) {
    scheduler.flush();
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.false(second.some((e) => e.kind === 'error'), 'its pass is not abandoned');
  agent.stop('second run over');
  scheduler.flush();
  const abandoned = second.find((e) => e.kind === 'error');
  t.like(abandoned, { signalType: 'tick' }, 'it was waiting on the tool until its own run stopped');
  t.regex((abandoned as { message: string }).message, /^abandoned: /);
});

test('a live run (keepAlive) at max cycles reads its finite inputs to their end before it stops, whatever its live ones do; one still open brings the max-cycles warning', (t) => {
  const facts = Array.from({ length: 300 }, (_, i) => ({ source: 'stdin', value: { type: 'fact', subject: `Moon ${i}`, predicate: 'orbits', object: 'Mars' } }));
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 1 } });
  agent.inject(goal('Find moons of Mars'));
  const input$ = new Subject<Stimulus>();
  const events: AgentEvent[] = [];
  const events$ = agent.run({ inputs: [input$], live: [NEVER], keepAlive: true });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  scheduler.flush();
  t.is(agent.mind.cycle, 1);
  for (const fact of facts) input$.next(fact);
  scheduler.flush();
  t.is(events.filter((e) => e.kind === 'perceived').length, 301, 'the goal and every fact were taken in after max cycles');
  t.is(events.filter((e) => e.kind === 'warning' && e.key === 'maxCycles').length, 1, 'one warning that no more cycles run');
  t.not(events.at(-1)!.kind, 'session', 'the run lasts while its input is open');
  input$.complete();
  scheduler.flush();
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 1 });
});

test('a live run (keepAlive) that starts at max cycles stops at once, as one that reaches it does, though its input never ends (a WebSocket server)', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 0 } });
  const events: AgentEvent[] = [];
  const events$ = agent.run({ live: [NEVER], keepAlive: true });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  scheduler.flush();
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 0 });

  const busyScheduler = new VirtualTimeScheduler();
  const busy = createTestAgent(busyScheduler, { config: { maxCycles: 0 } });
  busy.inject(goal('Find moons of Mars'));
  const busyEvents: AgentEvent[] = [];
  const busy$ = busy.run({ live: [NEVER], keepAlive: true });
  busy$.subscribe((e) => busyEvents.push(e));
  busy$.connect();
  busyScheduler.flush();
  t.true(busyEvents.some((e) => e.kind === 'goal' && e.description === 'Find moons of Mars'), 'a goal there at its start is taken in first');
  t.like(busyEvents.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 0 });
});
