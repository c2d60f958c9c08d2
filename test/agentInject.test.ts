import test from 'ava';
import { VirtualTimeScheduler } from 'rxjs';
import type { AgentEvent } from '../streams/events.js';
import type { InjectableSignal } from '../streams/signals.js';
import { createTestAgent } from '../streams/testing.js';

const moon = (object: string): InjectableSignal => ({ type: 'fact', subject: 'Mars', predicate: 'has moon', object, depth: 0, meta: {} });
const moonsOf = (agent: ReturnType<typeof createTestAgent>) => agent.mind.graph.query({ subject: 'mars', predicate: 'has_moon' }).map((f) => f.object).sort();

test('signals injected one after another into a connected run are all processed before it stops', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 3 } });
  const events$ = agent.run();
  const events: AgentEvent[] = [];
  events$.subscribe((e) => events.push(e));
  events$.connect();
  t.deepEqual(['Phobos', 'Deimos', 'Moon3'].map((o) => agent.inject(moon(o))), [true, true, true]);
  scheduler.flush();
  t.deepEqual(moonsOf(agent), ['deimos', 'moon3', 'phobos']);
  t.is(events.filter((e) => e.kind === 'perceived').length, 3);
  t.like(events.at(-1), { kind: 'session', state: 'stopped' });
  t.false(agent.inject(moon('Late')), 'a stopped run accepts nothing');
});

test('signals injected before run() or before connect() are queued and processed in order once connected', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 2 } });
  t.true(agent.inject(moon('Phobos')));
  const events$ = agent.run();
  t.true(agent.inject({ type: 'goal', description: 'Find moons of Mars', priority: 5, depth: 0, meta: {} }));
  const events: AgentEvent[] = [];
  events$.subscribe((e) => events.push(e));
  events$.connect();
  scheduler.flush();
  t.deepEqual(moonsOf(agent), ['phobos']);
  t.deepEqual(
    events.filter((e) => e.kind === 'perceived').map((e) => (e as { signalType?: string }).signalType),
    ['fact', 'goal'],
  );
  t.true(events.some((e) => e.kind === 'goal' && e.change === 'completed'), 'the queued fact answers the queued goal');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended and no goal is active' });
});
