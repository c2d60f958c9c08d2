import test from 'ava';
import { concat, from, NEVER, of, take, throwError, VirtualTimeScheduler, type Observable } from 'rxjs';
import type { AgentSources } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, flushSettled, goalStimulus } from '../streams/testing.js';

const goal = goalStimulus('Find moons of Mars');

/** Runs an agent over `sources` on virtual time (at most 300 events); the stream's error, if any, as `failure`. */
async function runOn(sources: AgentSources): Promise<{ events: AgentEvent[]; failure: unknown }> {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 2 } });
  const events: AgentEvent[] = [];
  let failure: unknown;
  agentEvents(agent, sources).pipe(take(300)).subscribe({ next: (e) => events.push(e), error: (error) => (failure = error) });
  await flushSettled(scheduler);
  return { events, failure };
}

const rejections = (events: AgentEvent[]) => events.flatMap((e) => (e.kind === 'rejected' ? [`${e.source}: ${e.reason}`] : []));
const bad = <T>(value: unknown) => of(value as T);

test('a source that errors ends with a rejection naming it; the other sources and the run go on, and the stream never errors', async (t) => {
  const { events, failure } = await runOn({
    inputs: [concat(of(goal), throwError(() => new Error('stdin broke')))],
    ambient: [throwError(() => new Error('sensor exploded'))],
  });
  t.is(failure, undefined);
  t.deepEqual(rejections(events).sort(), [
    'ambient[0]: ambient[0] failed: sensor exploded; nothing more is taken from it',
    'inputs[0]: inputs[0] failed: stdin broke; nothing more is taken from it',
  ]);
  t.is(events.filter((e) => e.kind === 'action').length, 2, 'the goal taken in before the failure is worked on');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached' });
});

test('what a source should not emit is rejected, naming the source and the problem: a stimulus that is none, a signal without its envelope, an ambient signal that fails its schema', async (t) => {
  const { events, failure } = await runOn({
    inputs: [bad(null), bad(42), bad({ type: 'heartbeat', beat: 1, depth: 0, meta: { source: 'heartbeat' } })],
    signals: [bad({ type: 'fact' }), bad({ type: 'nope', depth: 0, meta: { source: 'mine' } })],
    ambient: [bad({ type: 'goal', depth: 0, meta: { source: 'mine' } }), bad(null), bad({ type: 'heartbeat', beat: 1, depth: 0, meta: { source: 7 } })],
  });
  t.is(failure, undefined);
  t.deepEqual(rejections(events).sort(), [
    'ambient[0]: ambient[0]: invalid goal signal: description: Invalid input: expected string, received undefined',
    'ambient[1]: ambient[1]: expected a signal object with a "type" field, got null',
    'ambient[2]: ambient[2]: invalid heartbeat signal: meta.source: expected string, got 7',
    'inputs[0]: inputs[0] emitted null, not a stimulus ({ source, value } or { source, text })',
    'inputs[1]: inputs[1] emitted 42, not a stimulus ({ source, value } or { source, text })',
    'inputs[2]: inputs[2] emitted an object, not a stimulus ({ source, value } or { source, text }) (a heartbeat signal? signals go in ambient or signals, not inputs)',
    'signals[0]: signals[0] emitted an object, not a signal (an object with type, depth and meta)',
    'signals[1]: signals[1] emitted an object, whose type "nope" is no signal type (one of goal, fact, input, sensor, command, tick, heartbeat, feedback, error, rejected)',
  ]);
  t.false(events.some((e) => e.kind === 'error'), 'nothing bad reaches the cycle');
  t.like(events.at(-1), { kind: 'session', state: 'stopped' });
});

test('a hold that errors releases the run, and one that emits other than true or false holds it not; each is rejected once, naming it', async (t) => {
  const cases: [Observable<boolean>, string][] = [
    [concat(of(true), throwError(() => new Error('store gone'))), 'hold: hold failed: store gone; the run is no longer held'],
    [concat(bad<boolean>('yes'), bad<boolean>(1), NEVER), 'hold: hold emitted "yes", not true or false: the run is not held by it (nor by later such values, without another rejection)'],
  ];
  for (const [hold, rejection] of cases) {
    const { events, failure } = await runOn({ inputs: [from([goal])], hold });
    t.is(failure, undefined, rejection);
    t.deepEqual(rejections(events), [rejection]);
    t.is(events.filter((e) => e.kind === 'action').length, 2, rejection);
    t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached' }, rejection);
  }
});
