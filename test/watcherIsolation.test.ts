import test from 'ava';
import { delay, filter, map, mergeMap, of, tap } from 'rxjs';
import type { Cycle } from '../streams/cycle.js';
import type { AgentEvent } from '../streams/events.js';
import { runGoal } from './helpers/agentRuns.js';
import type { AgentOptions } from '../streams/createAgent.js';

/** Runs a goal for up to six cycles on virtual time; returns every event (a stream error as a `stream-error` one). */
const run = (t: { deepEqual: (a: unknown, b: unknown) => void }, options: AgentOptions): AgentEvent[] => runGoal(t, options);

test('a watcher that throws is dropped with a critical error event naming it; the run goes on and stops normally', (t) => {
  let seen = 0;
  const events = run(t, {
    watchers: [
      () =>
        tap((c) => {
          if (c.signal.type === 'tick') throw new Error('watcher boom');
        }),
      function counting() {
        return map((c) => (seen++, c));
      },
    ],
  });
  t.false(events.some((e) => (e.kind as string) === 'stream-error'), 'the stream never errors');
  const errors = events.filter((e) => e.kind === 'error');
  t.is(errors.length, 1, 'one error event: the watcher is not run again');
  t.like(errors[0], { severity: 'critical', message: 'watcher watchers[0] failed: watcher boom; it is dropped for the rest of the run' });
  const failedAt = events.indexOf(errors[0]!);
  t.true(events.slice(failedAt).filter((e) => e.kind === 'decision').length >= 1, 'cycles still happen after the failure');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 6 });
  t.is(seen, 1 + 6, 'the watcher after it sees every pass (the goal and six ticks), the failing one included');
});

test('a named watcher is named by its function name', (t) => {
  const events = run(t, {
    watchers: [
      function exploding() {
        return map((c) => {
          if (c.signal.type === 'tick') throw new RangeError('bad state');
          return c;
        });
      },
    ],
  });
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', message: 'watcher watchers[0] (exploding) failed: bad state; it is dropped for the rest of the run' });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', cycles: 6 });
});

test('a watcher whose operator throws as it is applied, or is no operator, is dropped before any pass; the stream never errors', (t) => {
  const throwing = run(t, {
    watchers: [
      function brittle() {
        return () => {
          throw new Error('cannot watch');
        };
      },
    ],
  });
  t.false(throwing.some((e) => (e.kind as string) === 'stream-error'), 'the stream never errors');
  t.like(throwing.find((e) => e.kind === 'error'), { severity: 'critical', message: 'watcher watchers[0] (brittle) failed: cannot watch; it is dropped for the rest of the run' });
  t.like(throwing.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 6 });
  const notAnOperator = run(t, { watchers: [() => 42 as never] });
  t.false(notAnOperator.some((e) => (e.kind as string) === 'stream-error'), 'the stream never errors');
  t.like(notAnOperator.find((e) => e.kind === 'error'), { severity: 'critical', message: 'watcher watchers[0] failed: its factory returned 42, not an operator function; it is dropped for the rest of the run' });
  t.like(notAnOperator.at(-1), { kind: 'session', state: 'stopped', cycles: 6 });
});

test('a watcher whose factory throws is dropped before any pass, named; createAgent does not throw', (t) => {
  const events = run(t, {
    watchers: [
      function unbuildable() {
        throw new Error('no state to watch');
      },
    ],
  });
  t.false(events.some((e) => (e.kind as string) === 'stream-error'), 'the stream never errors');
  t.like(events.find((e) => e.kind === 'error'), {
    severity: 'critical',
    message: 'watcher watchers[0] (unbuildable) failed: its factory threw: no state to watch; it is dropped for the rest of the run',
  });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 6 });
});

/** The run's events but the warnings, as kind@cycle, to compare runs. */
const shape = (events: AgentEvent[]) => events.filter((e) => e.kind !== 'warning').map((e) => `${e.kind}@${e.cycle}`);
const warnings = (events: AgentEvent[]) => events.flatMap((e) => (e.kind === 'warning' ? [e.message] : []));

test('a watcher that filters passes out loses none of their events: each goes on without it, with one warning naming it', (t) => {
  const plain = run(t, {});
  const events = run(t, { watchers: [function onlyDecisions() { return filter((c) => c.decision !== undefined); }] });
  t.deepEqual(shape(events), shape(plain));
  t.deepEqual(warnings(events), [
    'watcher watchers[0] (onlyDecisions) did not pass on this goal pass as it came (a filter, a delay?): it goes on without the watcher, and so do later ones it holds back, without another warning',
  ]);
});

test('a watcher that emits a pass twice, or late, doubles no event: what it emits beyond each pass is ignored, with one warning naming it', (t) => {
  const plain = run(t, {});
  const twice = run(t, { watchers: [() => mergeMap((c) => of(c, c))] });
  t.deepEqual(shape(twice), shape(plain));
  t.deepEqual(warnings(twice), ['watcher watchers[0] emitted a pass beyond the one it was given (a mergeMap, a delay?): it is ignored, and so are later ones, without another warning']);

  const late = run(t, { watchers: [() => delay(1)] });
  t.deepEqual(shape(late), shape(plain));
  t.is(warnings(late).length, 2, 'held back, then emitted late');
  t.like(late.at(-1), { kind: 'session', state: 'stopped', cycles: 6 });
});

test('a watcher that passes on a changed copy of each pass is taken at its word', (t) => {
  const events = run(t, { watchers: [() => map((c) => ({ ...c, events: [...c.events] }))] });
  t.deepEqual(warnings(events), []);
  t.deepEqual(shape(events), shape(run(t, {})));
});

test('a watcher that passes on something other than a cycle (nothing, a number, a copy without events) is dropped, named; no event of the pass is lost and the stream never errors', (t) => {
  const plain = run(t, {});
  const cases: [AgentOptions['watchers'], string][] = [
    [[() => map(() => undefined as unknown as Cycle)], 'undefined'],
    [[() => map(() => 42 as unknown as Cycle)], '42'],
    [[() => map((c) => ({ signal: c.signal }) as Cycle)], 'an object without an events array'],
  ];
  for (const [watchers, what] of cases) {
    const events = run(t, { watchers });
    t.false(events.some((e) => (e.kind as string) === 'stream-error'), what);
    const errors = events.filter((e) => e.kind === 'error');
    t.is(errors.length, 1, what);
    t.like(errors[0], { severity: 'critical', message: `watcher watchers[0] emitted ${what}, not a cycle (a watcher passes on the pass it was given, or a changed copy of it); it is dropped for the rest of the run` });
    t.deepEqual(shape(events.filter((e) => e.kind !== 'error')), shape(plain), what);
  }
});
