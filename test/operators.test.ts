import test from 'ava';
import { asyncScheduler, lastValueFrom, map, of, pipe, tap, toArray, type OperatorFunction } from 'rxjs';
import { act } from '../operators/act.js';
import { decide } from '../operators/decide.js';
import { feedback } from '../operators/feedback.js';
import { observe } from '../operators/observe.js';
import { orient } from '../operators/orient.js';
import { perceive } from '../operators/perceive.js';
import { stamp } from '../operators/stamp.js';
import { heartbeat } from '../sources/heartbeat.js';
import { sensor } from '../sources/sensor.js';
import { beginCycle, vetoCycle, type Cycle } from '../streams/cycle.js';
import type { Draft } from '../streams/events.js';
import type { Runtime } from '../streams/runtime.js';
import type { Signal } from '../streams/signals.js';
import { runMarbles } from '../streams/testing.js';
import { scriptedTool, testRuntime } from './helpers/runtime.js';

const tick: Signal = { type: 'tick', depth: 0, meta: { source: 'test' } };
const kinds = (cycle: Cycle) => cycle.events.map((e) => e.kind);
const withGoal = (runtime: Runtime, description = 'Find moons of Mars') => {
  runtime.mind.graph.add('Mars', 'has moon', 'Phobos');
  return runtime.mind.addGoal({ description });
};
const chain = (rt: Runtime, ...extra: OperatorFunction<Cycle, Cycle>[]): OperatorFunction<Cycle, Cycle> =>
  extra.reduce((op, next) => pipe(op, next), pipe(observe(rt), orient(rt), decide(rt)) as OperatorFunction<Cycle, Cycle>);

test('perceive: valid lines become signals stamped with scheduler time; bad lines become rejections naming line and reason', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler);
    const lines = cold('a-b-c-d|', {
      a: { source: 'stdin', line: 1, text: '{"type":"goal","description":"Map orbits","priority":7}' },
      b: { source: 'stdin', line: 2, text: '{oops' },
      c: { source: 'stdin', line: 3, text: '{"type":"goal","description":"x","priority":300}' },
      d: { source: 'stdin', line: 4, text: '{"type":"fact","subject":"a","predicate":"b"}' },
    });
    const out = lines.pipe(
      perceive(runtime),
      map((p) => (p.ok ? { ok: true, type: p.signal.type, at: p.signal.at, line: p.signal.meta.line } : { ok: false, line: p.rejected.line, reason: p.rejected.reason.split(':').slice(0, 2).join(':') })),
    );
    expectObservable(out).toBe('a-b-c-d|', {
      a: { ok: true, type: 'goal', at: 0, line: 1 },
      b: { ok: false, line: 2, reason: 'not JSON: Expected property name or \'}\' in JSON at position 1' },
      c: { ok: false, line: 3, reason: 'invalid goal signal: priority' },
      d: { ok: false, line: 4, reason: 'invalid fact signal: object' },
    });
  });
});

test('perceive: unknown, internal and missing types are rejected with the expected types listed', (t) => {
  const runtime = testRuntime(undefined as never);
  const clock = { now: () => 0, mind: runtime.mind };
  const reason = (text: string) => {
    let out = '';
    of({ source: 'x', text }).pipe(perceive(clock)).subscribe((r) => (out = r.ok ? 'ok' : r.rejected.reason));
    return out;
  };
  t.is(reason('{"type":"tick"}'), 'unknown signal type "tick" (expected one of goal, fact, input, sensor, command)');
  t.is(reason('{"description":"x"}'), 'missing "type" (expected one of goal, fact, input, sensor, command)');
  t.is(reason('[1,2]'), 'expected a JSON object with a "type" field, got an array');
  t.is(reason('{"type":"goal","description":"x","prio":3}'), 'invalid goal signal: prio: Unrecognized key: "prio"');
  t.is(reason('{"type":"fact","subject":"   ","predicate":"is","object":"x"}'), 'invalid fact signal: subject: must not be empty or blank');
  t.is(reason('{"type":"sensor","sensor":"t","value":[1,2]}'), 'invalid sensor signal: value: expected a number, a string, a boolean or an object, got an array');
  t.is(reason('{"type":"sensor","sensor":"t","value":null}'), 'invalid sensor signal: value: expected a number, a string, a boolean or an object');
  t.is(reason('{"type":"sensor","sensor":"t","value":1e400}'), 'invalid sensor signal: value: expected a finite number, got Infinity', 'a number JSON parses to Infinity is said to be one');
});

test('observe → orient → decide: one pass fills the cycle and records observation, orientation and decision', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler);
    const goal = withGoal(runtime);
    const passes = cold('-a|', { a: tick }).pipe(map((s) => beginCycle(runtime, s)), chain(runtime));
    expectObservable(passes.pipe(map((c) => ({ kinds: kinds(c), goal: c.goal?.id, tool: c.decision?.tool, cycle: c.decision?.cycle })))).toBe('-a|', {
      a: { kinds: ['observation', 'orientation', 'decision'], goal: goal.id, tool: 'kg_query', cycle: 1 },
    });
  });
});

test('observe: a non-cycle signal is only taken in; a paused agent observes nothing', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler);
    withGoal(runtime);
    const input: Signal = { type: 'input', text: 'hello', depth: 0, meta: { source: 'stdin', line: 3 } };
    const pause: Signal = { type: 'command', command: 'pause', depth: 0, meta: { source: 'stdin' } };
    const passes = cold('abc|', { a: input, b: pause, c: tick }).pipe(map((s) => beginCycle(runtime, s)), observe(runtime));
    expectObservable(passes.pipe(map(kinds))).toBe('abc|', {
      a: ['perceived', 'input'],
      b: ['perceived', 'session', 'command'],
      c: [],
    });
  });
});

test('act: runs the decided tool, judges the goal and records action and goal events', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler);
    withGoal(runtime);
    const passes = cold('a|', { a: tick }).pipe(map((s) => beginCycle(runtime, s)), chain(runtime, act(runtime)));
    expectObservable(passes.pipe(map((c) => ({ kinds: kinds(c), progress: c.outcome?.progress })))).toBe('a|', {
      a: { kinds: ['observation', 'orientation', 'decision', 'action', 'goal'], progress: 'completed' },
    });
  });
});

test('act: an asynchronous tool delays the pass until its promise settles', async (t) => {
  let resolve!: (output: { ok: boolean; summary: string }) => void;
  const runtime = testRuntime(asyncScheduler, {}, [scriptedTool('slow', 0.9, () => new Promise((r) => (resolve = r)))]);
  withGoal(runtime);
  const seen: string[] = [];
  const done = lastValueFrom(of(tick).pipe(map((s) => beginCycle(runtime, s)), chain(runtime, act(runtime)), tap((c) => seen.push(c.outcome!.summary))));
  await Promise.resolve();
  t.deepEqual(seen, [], 'nothing is emitted while the tool runs');
  resolve({ ok: true, summary: 'done later' });
  const cycle = await done;
  t.deepEqual(seen, ['done later']);
  t.deepEqual(kinds(cycle), ['observation', 'orientation', 'decision', 'action']);
});

test('a user operator between decide and act can veto: the tool does not run and the action is recorded as vetoed', (t) => {
  let ran = 0;
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler, {}, [scriptedTool('shell_exec', 0.9, () => (ran++, { ok: true, summary: 'ran' }))]);
    withGoal(runtime);
    const noShell = map((c: Cycle) => (c.decision?.tool === 'shell_exec' ? vetoCycle(c, 'no shell in tests') : c));
    const passes = cold('a|', { a: tick }).pipe(map((s) => beginCycle(runtime, s)), chain(runtime, noShell, act(runtime)));
    expectObservable(passes.pipe(map((c) => ({ status: c.outcome?.status, summary: c.outcome?.summary })))).toBe('a|', {
      a: { status: 'vetoed', summary: 'vetoed: no shell in tests' },
    });
  });
  t.is(ran, 0);
});

test('feedback: a signal that feeds back forever stops at depth 10 with exactly one error event', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler, { maxCycles: 100, stallThreshold: 100 }, [scriptedTool('echo', 0.9, () => ({ ok: true, summary: 'again', followUp: 'keep going' }))]);
    withGoal(runtime);
    const passes = cold('a|', { a: tick }).pipe(feedback(runtime, chain(runtime, act(runtime))));
    const depths = passes.pipe(
      map((c) => `${c.signal.depth}:${c.events.filter((e) => e.kind === 'error').map((e) => (e as Draft<'error'>).message).join('')}`),
      toArray(),
    );
    expectObservable(depths).toBe('-(a|)', {
      a: [...Array.from({ length: 11 }, (_, i) => `${i}:`), '11:max depth 10 reached'],
    });
  });
});

test('recover: a tool that throws is a transient error, state is kept, the retry at depth 1 ends the chain when it fails again', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler, {}, [
      scriptedTool('flaky', 0.9, () => {
        throw new Error('socket hang up');
      }),
    ]);
    const goal = withGoal(runtime);
    const passes = cold('a|', { a: tick }).pipe(feedback(runtime, chain(runtime, act(runtime))));
    const state = passes.pipe(map(() => ({ failures: runtime.mind.goals.get(goal.id)?.failures, memory: runtime.mind.memory.all().filter((e) => e.kind === 'Action').length })));
    expectObservable(state.pipe(toArray())).toBe('-(a|)', { a: [{ failures: 1, memory: 1 }, { failures: 2, memory: 2 }] });
    const errors = passes.pipe(
      map((c) => c.events.filter((e) => e.kind === 'error' || e.kind === 'action').map((e) => (e.kind === 'error' ? `${e.severity}:${e.rolledBack}:${e.message}` : `action:${e.status}`))),
    );
    expectObservable(errors.pipe(toArray())).toBe('-(a|)', {
      a: [
        ['action:failed', 'transient:false:flaky: socket hang up'],
        ['action:failed', 'transient:false:flaky: socket hang up'],
      ],
    });
  });
});

test('recover: an operator bug is a critical error, the mind is rolled back to the signal’s checkpoint; no tool is blamed, and the tick (then its retry, which decided) still uses up its cycle', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler);
    const goal = withGoal(runtime);
    const buggy = map((_: Cycle) => {
      runtime.mind.graph.add('Bug', 'corrupts', 'state');
      runtime.mind.addGoal({ description: 'phantom goal' });
      throw new TypeError("Cannot read properties of undefined (reading 'tool')");
    });
    const passes = cold('a|', { a: tick }).pipe(feedback(runtime, chain(runtime, buggy)));
    const report = passes.pipe(
      map((c) => ({
        kinds: kinds(c),
        rolledBack: (c.events.find((e) => e.kind === 'error') as Draft<'error'> | undefined)?.rolledBack,
        undone: !/corrupts|phantom/.test(JSON.stringify(runtime.mind.toJSON())),
        cycle: runtime.mind.cycle,
        failures: runtime.mind.goals.get(goal.id)?.failures,
      })),
    );
    expectObservable(report.pipe(toArray())).toBe('-(a|)', {
      a: [
        { kinds: ['error'], rolledBack: true, undone: true, cycle: 1, failures: 0 },
        { kinds: ['error'], rolledBack: true, undone: true, cycle: 2, failures: 0 },
      ],
    });
  });
});

test('recover: a pass that decided uses up its cycle even when it is not a tick, so a tool run rolled back never shares its cycle number (and so its effects\' keys) with the next', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler, { maxCycles: 100, stallThreshold: 100 }, [scriptedTool('echo', 0.9, () => ({ ok: true, summary: 'again', followUp: 'keep going' }))]);
    withGoal(runtime);
    let acted = 0;
    const bugAfterSecondAct = map((c: Cycle) => {
      if (c.outcome && ++acted === 2) throw new TypeError('a bug after act');
      return c;
    });
    const passes = cold('a|', { a: tick }).pipe(feedback(runtime, chain(runtime, act(runtime), bugAfterSecondAct), { maxDepth: 2 }));
    const report = passes.pipe(map((c) => ({ signal: c.signal.type, depth: c.signal.depth, events: kinds(c).filter((k) => k === 'error' || k === 'action'), cycle: runtime.mind.cycle })));
    expectObservable(report.pipe(toArray())).toBe('-(a|)', {
      a: [
        { signal: 'tick', depth: 0, events: ['action'], cycle: 1 },
        { signal: 'feedback', depth: 1, events: ['error'], cycle: 2 },
        { signal: 'error', depth: 2, events: ['action'], cycle: 3 },
        { signal: 'feedback', depth: 3, events: ['error'], cycle: 3 },
      ],
    });
  });
});

test('the seed’s immune test: a stage that throws "CRITICAL BRAIN FAILURE" is reported and the next signal is handled normally', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }, scheduler) => {
    const runtime = testRuntime(scheduler);
    let armed = true;
    const evilSkill = map((c: Cycle) => {
      if (armed && c.signal.type === 'input') {
        armed = false;
        throw new Error('CRITICAL BRAIN FAILURE');
      }
      return c;
    });
    const input = (text: string): Signal => ({ type: 'input', text, depth: 0, meta: { source: 'user' } });
    const passes = cold('a-b|', { a: input('first'), b: input('second') }).pipe(feedback(runtime, pipe(observe(runtime), evilSkill)));
    const report = passes.pipe(map((c) => c.events.map((e) => (e.kind === 'error' ? `error:${e.severity}:${e.message}` : e.kind))));
    expectObservable(report.pipe(toArray())).toBe('---(a|)', {
      a: [['perceived', 'error:critical:CRITICAL BRAIN FAILURE'], [], ['perceived', 'input']],
    });
  });
});

test('heartbeat: one beat per period on virtual time, stopped by unsubscription', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ expectObservable }, scheduler) => {
    const beats = heartbeat(1000, scheduler).pipe(map((s) => `${s.beat}@${s.at}`));
    expectObservable(beats, '^ 3500ms !').toBe('1000ms a 999ms b 999ms c', { a: '1@1000', b: '2@2000', c: '3@3000' });
  });
});

test('sensor: polls on virtual time; a read that throws becomes an error value, not a stream error', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ expectObservable }, scheduler) => {
    let n = 0;
    const read = () => {
      n++;
      if (n === 2) throw new Error('sensor offline');
      return n;
    };
    const values = sensor('temp', read, 10, scheduler).pipe(map((s) => s.value));
    expectObservable(values, '^ 35ms !').toBe('10ms a 9ms b 9ms c', { a: 1, b: { error: 'sensor offline' }, c: 3 });
  });
});

test('stamp: seq is strictly increasing from firstSeq and session is set', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }) => {
    const draft = (at: number): Draft => ({ kind: 'heartbeat', cycle: 0, at, beat: at });
    const out = cold('ab|', { a: draft(1), b: draft(2) }).pipe(stamp('s', 41), map((e) => `${e.seq}:${e.session}`));
    expectObservable(out).toBe('ab|', { a: '41:s', b: '42:s' });
  });
});

test('stamp: a firstSeq that is no whole number ≥ 0 or a blank session is refused, naming it, instead of stamping seq NaN or 1.5', (t) => {
  for (const [firstSeq, got] of [[NaN, 'NaN'], [1.5, '1.5'], [-1, '-1']] as const) {
    t.throws(() => stamp('s', firstSeq), { instanceOf: RangeError, message: `stamp firstSeq: expected a whole number ≥ 0, got ${got}` });
  }
  t.throws(() => stamp('s', '1' as never), { instanceOf: TypeError, message: 'stamp firstSeq: expected a whole number ≥ 0, got "1"' });
  t.throws(() => stamp(''), { instanceOf: TypeError, message: 'stamp session: expected a non-empty string, got ""' });
  t.throws(() => stamp(7 as never), { instanceOf: TypeError, message: 'stamp session: expected a non-empty string, got 7' });
});

test('stamp: a draft carrying a seq and session of its own (an event of the run copied into a later pass) is stamped all the same', (t) => {
  runMarbles(t.deepEqual.bind(t), ({ cold, expectObservable }) => {
    const draft = (at: number): Draft => ({ kind: 'heartbeat', cycle: 0, at, beat: at });
    const copied = Object.assign(draft(2), { seq: 41, session: 'other' });
    const out = cold('abc|', { a: draft(1), b: copied, c: draft(3) }).pipe(stamp('s', 41), map((e) => `${e.seq}:${e.session}:${Object.keys(e).slice(0, 5).join(',')}`));
    expectObservable(out).toBe('abc|', { a: '41:s:kind,seq,session,cycle,at', b: '42:s:kind,seq,session,cycle,at', c: '43:s:kind,seq,session,cycle,at' });
  });
});

test('sensor: a read that returns what a sensor signal cannot carry becomes an error value saying what it returned', (t) => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const returns: unknown[] = [undefined, Number.NaN, [1, 2], () => 1, Promise.resolve(5), cyclic, { big: 10n }, { ok: 1 }];
  runMarbles(t.deepEqual.bind(t), ({ expectObservable }, scheduler) => {
    let n = 0;
    const values = sensor('odd', () => returns[n++] as number, 10, scheduler).pipe(map((s) => s.value));
    const expect = (what: string) => ({ error: `read returned ${what}: expected a finite number, a string, a boolean or an object` });
    expectObservable(values, '^ 85ms !').toBe('10ms a 9ms b 9ms c 9ms d 9ms e 9ms f 9ms g 9ms h', {
      a: expect('undefined'),
      b: expect('NaN'),
      c: expect('an array'),
      d: expect('a function'),
      e: { error: 'read returned a Promise: it must return the reading synchronously, not from an async function' },
      f: { error: 'read returned an object JSON cannot write: Converting circular structure to JSON' },
      g: { error: 'read returned an object JSON cannot write: Do not know how to serialize a BigInt' },
      h: { ok: 1 },
    });
  });
});
