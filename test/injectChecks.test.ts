import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualTimeScheduler } from 'rxjs';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { AgentConfig } from '../streams/config.js';
import type { Agent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import type { InjectableSignal } from '../streams/signals.js';
import { replaySession } from '../streams/replay.js';
import { createTestAgent } from '../streams/testing.js';
import { recordSession } from './helpers/recordSession.js';

/** Injects the values (as an untyped caller might) into a connected run; returns what inject answered and every event. */
function injectAll(...values: unknown[]) {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 2 } });
  const events$ = agent.run();
  const events: AgentEvent[] = [];
  const failures: unknown[] = [];
  events$.subscribe({ next: (e) => events.push(e), error: (e) => failures.push(e) });
  events$.connect();
  const answers = values.map((value) => agent.inject(value as InjectableSignal));
  scheduler.flush();
  return { agent, answers, events, failures };
}

const rejections = (events: AgentEvent[]) => events.filter((e) => e.kind === 'rejected').map((e) => ({ source: e.source, reason: e.reason }));
const fact = { type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' };

test('a value that is not an object is a rejected event naming it, and the stream goes on', (t) => {
  const { answers, events, failures, agent } = injectAll(null, 42, ['fact'], { ...fact, depth: 0, meta: {} });
  t.deepEqual(failures, [], 'the stream never errors');
  t.deepEqual(answers, [false, false, false, true]);
  const got = (kind: string) => `expected a signal object with a "type" field, got ${kind}`;
  t.deepEqual(rejections(events), [
    { source: 'inject', reason: got('null') },
    { source: 'inject', reason: got('42') },
    { source: 'inject', reason: got('an array') },
  ]);
  t.is(agent.mind.graph.query({ subject: 'mars' }).length, 1, 'the good signal after them is processed');
  t.like(events.at(-1), { kind: 'session', state: 'stopped' });
});

test('an unknown or missing type is a rejected event naming the accepted types', (t) => {
  const { answers, events } = injectAll({ type: 'banana', depth: 0, meta: {} }, { depth: 0, meta: {} });
  t.deepEqual(answers, [false, false]);
  const expected = 'expected one of goal, fact, input, sensor, command, tick, heartbeat, feedback, error';
  t.deepEqual(rejections(events), [
    { source: 'inject', reason: `unknown signal type "banana" (${expected})` },
    { source: 'inject', reason: `missing "type" (${expected})` },
  ]);
});

test('a signal without meta or depth gets the defaults: source inject, depth 0', (t) => {
  const { answers, events, agent } = injectAll(fact);
  t.deepEqual(answers, [true]);
  t.false(events.some((e) => e.kind === 'error'), 'no critical error reading meta.source');
  t.like(events.find((e) => e.kind === 'perceived'), { source: 'inject', signalType: 'fact', depth: 0 });
  t.is(agent.mind.graph.query({ subject: 'mars' }).length, 1);
});

test('a signal of an external type must pass the signal schema, which fills its defaults', (t) => {
  const { answers, events, agent } = injectAll({ type: 'goal', priority: 7 }, { type: 'goal', description: 'Find moons of Mars', meta: { source: 'test' } });
  t.deepEqual(answers, [false, true]);
  t.deepEqual(rejections(events), [{ source: 'inject', reason: 'invalid goal signal: description: Invalid input: expected string, received undefined' }]);
  t.like(events.find((e) => e.kind === 'perceived'), { source: 'test', signalType: 'goal' });
  t.like(agent.mind.goals.all()[0], { description: 'Find moons of Mars', priority: 128 });
});

test('a malformed envelope is a rejected event naming the field', (t) => {
  const { answers, events } = injectAll({ ...fact, meta: 'stdin' }, { ...fact, depth: -1 }, { ...fact, at: 'now' });
  t.deepEqual(answers, [false, false, false]);
  t.deepEqual(rejections(events).map((r) => r.reason), [
    'invalid fact signal: meta: expected an object (source, session, correlationId), got "stdin"',
    'invalid fact signal: depth: expected a whole number ≥ 0, got -1',
    'invalid fact signal: at: expected a scheduler time in ms, got "now"',
  ]);
});

test('a value rejected before the run is connected is reported once it is', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler);
  t.false(agent.inject(null as unknown as InjectableSignal));
  const events$ = agent.run();
  const events: AgentEvent[] = [];
  events$.subscribe((e) => events.push(e));
  events$.connect();
  scheduler.flush();
  t.deepEqual(events.map((e) => e.kind), ['session', 'rejected', 'session']);
});

test("an internal signal whose body lacks a field its events carry is a rejected event naming it, not an event without that field", (t) => {
  const { answers, events } = injectAll(
    { type: 'heartbeat' },
    { type: 'error', message: 5, severity: 'boom' },
    { type: 'error', message: 'm', severity: 'boom' },
    { type: 'feedback' },
    { type: 'heartbeat', beat: 3 },
    { type: 'tick' },
  );
  t.deepEqual(answers, [false, false, false, false, true, true]);
  t.deepEqual(rejections(events).map((r) => r.reason), [
    'invalid heartbeat signal: beat: expected number, got undefined',
    'invalid error signal: message: expected string, got 5',
    'invalid error signal: severity: expected one of transient, critical, got "boom"',
    'invalid feedback signal: reason: expected string, got undefined',
  ]);
  t.false(events.some((e) => e.kind === 'error'), 'no error event with a made-up severity');
  t.like(events.find((e) => e.kind === 'heartbeat'), { beat: 3 });
});

test('a command the agent has no handler for is rejected, naming the accepted ones, as perceive rejects it', (t) => {
  const { answers, events } = injectAll({ type: 'command', command: 'stpo' }, { type: 'command', command: 'status' });
  t.deepEqual(answers, [false, true]);
  t.deepEqual(rejections(events), [
    { source: 'inject', reason: 'invalid command signal: command: Invalid option "stpo": expected one of "pause"|"resume"|"status"|"consolidate"|"reflect"|"plan"|"stop"' },
  ]);
  t.deepEqual(events.filter((e) => e.kind === 'command').map((e) => e.command), ['status']);
});

test('a value that throws as it is read (a getter, a Proxy) is rejected with what it threw; inject does not throw', (t) => {
  const getter = Object.defineProperty({ type: 'goal' }, 'description', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
  const proxy = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('no keys');
      },
      get: (_target, key) => (key === 'type' ? 'fact' : undefined),
    },
  );
  const { answers, events } = injectAll(getter, proxy, { type: 'command', command: 'status' });
  t.deepEqual(answers, [false, false, true]);
  t.deepEqual(rejections(events), [
    { source: 'inject', reason: 'the signal could not be read: boom' },
    { source: 'inject', reason: 'the signal could not be read: no keys' },
  ]);
});

test('meta holds its documented fields only, each of its kind: one that does not is refused naming the field, so no event carries it', (t) => {
  const deep = JSON.parse('['.repeat(1500) + ']'.repeat(1500)) as unknown;
  const cyclic: Record<string, unknown> = { source: 'app' };
  cyclic.self = cyclic;
  const { answers, events, failures } = injectAll(
    { ...fact, meta: { source: 42, line: 'x' } },
    { ...fact, meta: { line: 0 } },
    { ...fact, meta: { source: 'app', trace: deep } },
    { ...fact, meta: cyclic },
    { type: 'tick', meta: { correlationId: 7 } },
    { ...fact, meta: { snapshotFailed: 'disk full' } },
    { ...fact, meta: { source: 'app', line: 3, correlationId: 'c-1', session: 's' } },
  );
  t.deepEqual(failures, []);
  t.deepEqual(answers, [false, false, false, false, false, false, true]);
  t.deepEqual(rejections(events).map((r) => r.reason), [
    'invalid fact signal: meta.source: expected string, got 42',
    'invalid fact signal: meta.line: expected a number > 0, got 0',
    'invalid fact signal: meta.trace: Unrecognized key: "trace"',
    'invalid fact signal: meta.self: Unrecognized key: "self"',
    'invalid tick signal: meta.correlationId: expected string, got 7',
    'invalid fact signal: meta.snapshotFailed: Unrecognized key: "snapshotFailed"',
  ]);
  t.false(events.some((e) => e.kind === 'error'), 'no critical error reporting a snapshot the caller made up');
  t.deepEqual(
    events.filter((e) => e.kind === 'perceived').map((e) => e.kind === 'perceived' && [e.source, e.line]),
    [['app', 3]],
    'only the good signal is perceived, with its source and line',
  );
});

test('a runtime signal with a field its type does not have is refused naming the field, as a recording of it could not be replayed', (t) => {
  const { answers, events } = injectAll({ type: 'heartbeat', beat: 2, trace: { a: 1 } }, { type: 'tick', extra: true }, { type: 'heartbeat', beat: 3 });
  t.deepEqual(answers, [false, false, true]);
  t.deepEqual(rejections(events).map((r) => r.reason), ['invalid heartbeat signal: trace: Unrecognized key: "trace"', 'invalid tick signal: extra: Unrecognized key: "extra"']);
  t.deepEqual(events.filter((e) => e.kind === 'heartbeat').map((e) => e.kind === 'heartbeat' && e.beat), [3]);
});

test('an injected signal refused for its meta (nested 1,500 levels deep) leaves the session whole in the store, and it replays', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'inject-meta-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'a.db');
  const deep = JSON.parse('['.repeat(1500) + ']'.repeat(1500)) as unknown;
  const config = AgentConfig.parse({ maxCycles: 2, heartbeatMs: 0 });
  const answers: boolean[] = [];
  const started = (agent: Agent) => answers.push(agent.inject({ ...fact, meta: { source: 'app', trace: deep } } as InjectableSignal));
  await recordSession(db, 'rec', config, [{ source: 't', value: { type: 'goal', description: 'Find moons of Mars' } }], { started });
  t.deepEqual(answers, [false]);
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    const types = (await store.all<{ type: string }>("SELECT type FROM signals WHERE session = 'rec' ORDER BY id")).map((row) => row.type);
    t.true(types.includes('rejected') && types.includes('goal'), types.join(', '));
    t.like(await replaySession(store, 'rec'), { identical: true });
  } finally {
    await store.close();
  }
});
