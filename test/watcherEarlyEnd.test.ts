import test from 'ava';
import { concat, first, map, takeWhile, throwError } from 'rxjs';
import { isolateWatcher } from '../operators/isolateWatcher.js';
import type { Cycle } from '../streams/cycle.js';
import type { AgentOptions } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import type { Runtime } from '../streams/runtime.js';
import { createTestScheduler } from '../streams/testing.js';
import { runGoal } from './helpers/agentRuns.js';

/** Runs a goal for up to six cycles on virtual time; returns every event (a stream error as a `stream-error` one). */
const run = (t: { deepEqual: (a: unknown, b: unknown) => void }, options: AgentOptions): AgentEvent[] => runGoal(t, options);

const dropped = (name: string) => `watcher ${name} completed before the run ended; it is dropped for the rest of the run`;

test('a watcher that completes after its first pass is dropped with an error event naming it; the run goes on', (t) => {
  const events = run(t, { watchers: [() => first()] });
  t.false(events.some((e) => (e.kind as string) === 'stream-error'));
  const errors = events.filter((e) => e.kind === 'error');
  t.is(errors.length, 1);
  t.like(errors[0], { severity: 'critical', message: dropped('watchers[0]') });
  t.true(events.slice(events.indexOf(errors[0]!)).some((e) => e.kind === 'decision'), 'cycles go on after it is dropped');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 6 });
});

test('a watcher that completes without passing on the pass it was given: that pass goes on carrying the error event', (t) => {
  const seen: string[] = [];
  const events = run(t, {
    watchers: [
      function untilTick() {
        return takeWhile((c: Cycle) => c.signal.type !== 'tick');
      },
      () => map((c: Cycle) => (seen.push(c.signal.type), c)),
    ],
  });
  t.like(events.find((e) => e.kind === 'error'), { message: dropped('watchers[0] (untilTick)') });
  t.deepEqual(seen, ['goal', 'tick', 'tick', 'tick', 'tick', 'tick', 'tick'], 'the next watcher sees every pass, no synthetic one');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached' });
});

test('a watcher that fails while draining after its passes ended still lets the stream complete', (t) => {
  const runtime = { mind: { cycle: 0 }, now: () => 0 } as unknown as Runtime;
  const scheduler = createTestScheduler((a, b) => t.deepEqual(a, b));
  scheduler.run(({ cold, expectObservable }) => {
    const pass = (): Cycle => ({ signal: { type: 'tick', depth: 0, meta: {} }, events: [] });
    const late = isolateWatcher(runtime, (passes$) => concat(passes$, throwError(() => new Error('late'))), 'late');
    const out$ = cold('a|', { a: pass() }).pipe(late, map((c) => c.events.map((e) => (e as { message?: string }).message)));
    expectObservable(out$).toBe('a(b|)', { a: [], b: ['watcher late failed: late; it is dropped for the rest of the run'] });
  });
});

test('marble (the doc comment\'s): a watcher that completes after its first pass (first()) is followed, in that pass\'s frame, by a synthetic pass carrying the error; later passes bypass it', (t) => {
  const runtime = { mind: { cycle: 0 }, now: () => 0 } as unknown as Runtime;
  const scheduler = createTestScheduler((a, b) => t.deepEqual(a, b));
  scheduler.run(({ cold, expectObservable }) => {
    const pass = (source: string): Cycle => ({ signal: { type: 'tick', depth: 0, meta: { source } }, events: [] });
    const out$ = cold('--a---b---c--|', { a: pass('a'), b: pass('b'), c: pass('c') }).pipe(
      isolateWatcher(runtime, first(), 'first'),
      map((c) => (c.events.length === 0 ? c.signal.meta.source : c.events.map((e) => (e as { message?: string }).message).join())),
    );
    expectObservable(out$).toBe('--(ae)b---c--|', { a: 'a', e: dropped('first'), b: 'b', c: 'c' });
  });
});
