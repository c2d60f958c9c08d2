import test from 'ava';
import { asyncScheduler, BehaviorSubject, filter, firstValueFrom, lastValueFrom, of, Subject, timeout, toArray, take, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import { heartbeat } from '../sources/heartbeat.js';
import { TestScheduler } from 'rxjs/testing';
import { vitals } from '../sources/vitals.js';
import type { AgentEvent } from '../streams/events.js';
import type { SensorSignal, Stimulus } from '../streams/signals.js';
import { createTestAgent, goalStimulus, stimulus } from '../streams/testing.js';

const runAll = async (agent: ReturnType<typeof createTestAgent>, inputs: Stimulus[]) => {
  const events$ = agent.run({ inputs: [of(...inputs)] });
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  return all;
};

test('a stop command ends the run after the in-flight work, with the reason in the last event', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { stallThreshold: 1_000_000 } });
  const source = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [source] });
  const all = lastValueFrom(events$.pipe(toArray(), timeout(10_000)));
  const firstDecision = firstValueFrom(events$.pipe(filter((e) => e.kind === 'decision'), timeout(10_000)));
  events$.connect();
  source.next(goalStimulus('Find anything about zzqx', { criteria: 'zzqx' }));
  await firstDecision;
  source.next(stimulus({ type: 'command', command: 'stop' }));
  const events = await all;
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'stop command' });
  t.true(events.filter((e) => e.kind === 'decision').length > 0, 'cycles ran before the stop');
  t.like(events.find((e) => e.kind === 'command'), { command: 'stop', result: 'stopping' });
});

test('agent.stop() with no run says so (false) and does nothing: the next run is not stopped by it', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { maxCycles: 3, stallThreshold: 1_000_000 } });
  t.false(agent.stop('too early'), 'no run() yet');
  const first = await runAll(agent, [goalStimulus('Find zzqx', { criteria: 'zzqx' })]);
  t.like(first.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
  t.false(agent.stop('too late'), 'the run has ended');
  const second = await runAll(agent, [goalStimulus('Find qwvx', { criteria: 'qwvx' })]);
  t.false(second.some((e) => e.kind === 'session' && e.state === 'stopped' && (e.reason === 'too early' || e.reason === 'too late')));
  t.like(second.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached' });
});

test('agent.stop() stops a live run once: true, then false while it drains and after it ended', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { stallThreshold: 1_000_000 } });
  const source = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [source] });
  const all = lastValueFrom(events$.pipe(toArray(), timeout(10_000)));
  events$.connect();
  source.next(goalStimulus('Find anything about zzqx', { criteria: 'zzqx' }));
  for (let waits = 0; waits < 200 && agent.mind.cycle < 2; waits++) await new Promise((r) => setTimeout(r, 10));
  t.true(agent.stop('enough'));
  t.false(agent.stop('again'), 'already stopping');
  const events = await all;
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'enough' });
  t.false(agent.stop('after'));
});

test('agent.stop() with a reason that is not a string (an Error) throws, naming it, and stops nothing: the run goes on and ends with its own reason', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 2, stallThreshold: 1_000_000 } });
  const events: AgentEvent[] = [];
  const events$ = agent.run({ inputs: [of(goalStimulus('Find zzqx', { criteria: 'zzqx' }))] });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  t.throws(() => agent.stop(new Error('disk full') as never), { instanceOf: TypeError, message: 'agent.stop: reason must be a string (got an object)' });
  t.throws(() => agent.stop(5 as never), { instanceOf: TypeError, message: 'agent.stop: reason must be a string (got 5)' });
  scheduler.flush();
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 2 });
});

test('agent.stop() between run() and connect() stops that run: once connected it starts, takes in only what was injected before, and stops', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { stallThreshold: 1_000_000 } });
  const source = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [source] });
  t.true(agent.inject({ type: 'fact', subject: 'zzqx', predicate: 'is a', object: 'word' }));
  t.true(agent.stop('not wanted'), 'run() was called: its run is live');
  t.false(agent.inject({ type: 'fact', subject: 'qwvx', predicate: 'is a', object: 'word' }), 'a stopped run takes nothing more');
  const all = lastValueFrom(events$.pipe(toArray(), timeout(10_000)));
  events$.connect();
  source.next(goalStimulus('Find anything about zzqx', { criteria: 'zzqx' }));
  const events = await all;
  t.deepEqual(events.map((e) => e.kind), ['session', 'perceived', 'fact', 'session']);
  t.like(events[2], { subject: 'zzqx', added: true });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'not wanted', cycles: 0 });
  t.true(events.at(-1)!.at >= events[0]!.at, 'it stops after it started');
  t.is(agent.mind.goals.all().length, 0, 'the goal sent after the stop was not taken in');
});

test('max cycles stops the cycles; input that has already ended finishes the run', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { maxCycles: 7, stallThreshold: 1_000_000 } });
  const events = await runAll(agent, [goalStimulus('Find zzqx', { criteria: 'zzqx' })]);
  t.is(events.filter((e) => e.kind === 'decision').length, 7);
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 7 });
});

test('max cycles with input still open: the first signal taken in afterwards brings one warning that no more cycles run; the run ends when the input does', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { maxCycles: 3, stallThreshold: 1_000_000 } });
  const source = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [source] });
  const seen: { kind: string; key?: string; message?: string }[] = [];
  events$.subscribe((event) => seen.push(event as never));
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  source.next(goalStimulus('Find zzqx', { criteria: 'zzqx' }));
  for (let waits = 0; waits < 100 && agent.mind.cycle < 3; waits++) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 30));
  t.false(seen.some((e) => e.kind === 'warning'), 'nothing to say while nothing arrives');
  source.next(stimulus({ type: 'fact', subject: 'zzqx', predicate: 'is a', object: 'word' }));
  source.next(goalStimulus('Find moons of Mars'));
  source.complete();
  const events = await all;
  const warnings = events.filter((e): e is AgentEvent<'warning'> => e.kind === 'warning');
  t.is(warnings.length, 1, 'the warning is given once');
  t.like(warnings[0], { key: 'maxCycles' });
  t.regex(warnings[0]!.message, /^max cycles \(3\) reached: no more cycles run, but the run goes on until its input ends/);
  t.is(events[events.indexOf(warnings[0]!) - 1]!.kind, 'fact', 'it comes with the fact that arrived');
  t.like(events.filter((e) => e.kind === 'fact').at(-1), { subject: 'zzqx', added: true });
  t.is(events.filter((e) => e.kind === 'decision').length, 3, 'no cycle ran after max cycles');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
});

test('a run whose cycles are stepped by hand (drive: false) stops when its input ends, saying goals are still active, not that it was paused', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { stallThreshold: 1_000_000 } });
  const events$ = agent.run({ inputs: [of(goalStimulus('Find zzqx', { criteria: 'zzqx' }))], drive: false });
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  const events = await all;
  t.is(events.filter((e) => e.kind === 'decision').length, 0, 'no driver, no cycles');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended with goals still active (cycles are stepped, not driven)' });
});

test('pause stops the driver and resume restarts it; a paused agent whose input has ended stops', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { maxCycles: 5, stallThreshold: 1_000_000 } });
  const events = await runAll(agent, [stimulus({ type: 'command', command: 'pause' }), goalStimulus('Find zzqx', { criteria: 'zzqx' })]);
  t.is(events.filter((e) => e.kind === 'decision').length, 0);
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended (agent paused)' });
  const resumed = createTestAgent(asyncScheduler, { config: { maxCycles: 5, stallThreshold: 1_000_000 } });
  const later = await runAll(resumed, [
    stimulus({ type: 'command', command: 'pause' }),
    goalStimulus('Find zzqx', { criteria: 'zzqx' }),
    stimulus({ type: 'command', command: 'resume' }),
  ]);
  t.is(later.filter((e) => e.kind === 'decision').length, 5);
});

test('the heartbeat does not keep a finished run alive', async (t) => {
  const agent = createTestAgent(asyncScheduler, { config: { heartbeatMs: 10 } });
  const { heartbeat } = await import('../sources/heartbeat.js');
  const events$ = agent.run({ inputs: [of(goalStimulus('Find zzqx', { criteria: 'zzqx' }))], ambient: [heartbeat(10)] });
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  const events = await all;
  t.like(events.at(-1), { kind: 'session', state: 'stopped' });
});

test('vitals senses the process’s own heap and event-loop load', async (t) => {
  const readings = await lastValueFrom(vitals(20).pipe(take(2), toArray()));
  for (const reading of readings) {
    t.is(reading.sensor, 'vitals');
    const value = reading.value as Record<string, number>;
    t.true(value.heapUsedMiB! > 0);
    t.true(value.heapRatio! > 0 && value.heapRatio! < 1);
    t.true(value.loopUtilization! >= 0 && value.loopUtilization! <= 1);
    t.true(value.loopLagMs! >= 0);
  }
});

test('vitals reads how late each reading ran on the scheduler clock and the event loop’s utilisation since the last reading, scheduling nothing but its readings', (t) => {
  const virtual = new TestScheduler((a, b) => t.deepEqual(a, b));
  let skew = 0;
  // The scheduler's clock, 4 ms ahead from 15 ms on: the reading due at 20 ms runs at 24 ms, as if the loop had been blocked.
  const clock: SchedulerLike = { now: () => virtual.now() + skew, schedule: virtual.schedule.bind(virtual) };
  const readings: SensorSignal[] = [];
  vitals(10, clock).pipe(take(3)).subscribe((reading) => readings.push(reading));
  virtual.schedule(() => (skew = 4), 15);
  t.is(virtual.actions.length, 2, 'only the reading timer (and the test’s clock jump) is scheduled');
  virtual.flush();
  t.deepEqual(readings.map((r) => r.at), [10, 24, 34]);
  t.deepEqual(readings.map((r) => (r.value as Record<string, number>).loopLagMs), [0, 4, 0], 'late by 4 ms once; the next reading is due a period after the late one');
  for (const { value } of readings) {
    t.deepEqual(Object.keys(value).sort(), ['heapRatio', 'heapUsedMiB', 'loopLagMs', 'loopUtilization']);
    const { loopUtilization } = value as Record<string, number>;
    t.true(loopUtilization! >= 0 && loopUtilization! <= 1);
  }
});

test('thousands of signals buffered behind an asynchronous tool drain without deep recursion, each perceived once', async (t) => {
  const { scriptedTool } = await import('./helpers/runtime.js');
  const slow = scriptedTool('slow', 0.9, () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, summary: 'slow answer' }), 30)));
  const agent = createTestAgent(asyncScheduler, { tools: [slow], config: { maxCycles: 2, stallThreshold: 1_000_000 } });
  const source = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [source] });
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  source.next(goalStimulus('Find zzqx', { criteria: 'zzqx' }));
  await new Promise((r) => setTimeout(r, 5)); // the slow tool is now in flight
  for (let line = 1; line <= 20_000; line++) source.next({ source: 'flood', line, value: { type: 'fact', subject: `s${line}`, predicate: 'p', object: 'o' } });
  source.complete();
  const events = await all;
  t.is(events.filter((e) => e.kind === 'perceived' && e.source === 'flood').length, 20_000);
  t.is(agent.mind.graph.knowledgeSize, 20_000);
  t.like(events.at(-1), { kind: 'session', state: 'stopped' });
});

test('the README’s custom cycle: a user operator between decide and act vetoes a tool through createAgent', async (t) => {
  const { map, pipe } = await import('rxjs');
  const { vetoCycle } = await import('../streams/cycle.js');
  const { scriptedTool } = await import('./helpers/runtime.js');
  let ran = 0;
  const shell = scriptedTool('shell_exec', 0.99, () => (ran++, { ok: true, summary: 'ran' }));
  const { Mind } = await import('../mind/mind.js');
  const { MindConfig } = await import('../mind/config.js');
  const agent = createTestAgent(asyncScheduler, {
    mind: new Mind({ tools: [shell], config: MindConfig.parse({ stallThreshold: 1_000_000 }) }),
    config: { maxCycles: 3 },
    cycle: (stages) =>
      pipe(
        stages.observe,
        stages.orient,
        stages.plan,
        stages.decide,
        stages.verify,
        map((cycle) => (cycle.decision?.tool === 'shell_exec' ? vetoCycle(cycle, 'no shell here') : cycle)),
        stages.act,
        stages.consolidate,
      ),
  });
  const events = await runAll(agent, [goalStimulus('Find zzqx', { criteria: 'zzqx' })]);
  const vetoed = events.filter((e) => e.kind === 'action' && e.tool === 'shell_exec');
  t.true(vetoed.length > 0);
  t.true(vetoed.every((e) => e.kind === 'action' && e.status === 'vetoed' && e.summary === 'vetoed: no shell here'));
  t.is(ran, 0);
});

test('while the run is held (a saturated store), heartbeats are skipped, not queued: the beats that come meanwhile never enter, later ones do', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { heartbeatMs: 0 } });
  const hold = new BehaviorSubject(false);
  const events$ = agent.run({ ambient: [heartbeat(100, scheduler)], hold, keepAlive: true });
  const beats: number[] = [];
  events$.subscribe((event) => {
    if (event.kind === 'heartbeat') beats.push(event.beat);
  });
  events$.connect();
  scheduler.schedule(() => hold.next(true), 250);
  scheduler.schedule(() => hold.next(false), 650);
  scheduler.schedule(() => agent.stop('done'), 950);
  scheduler.flush();
  t.deepEqual(beats, [1, 2, 7, 8, 9]);
});
