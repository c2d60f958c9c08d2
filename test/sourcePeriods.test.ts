import test from 'ava';
import type { Observable, SchedulerLike } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { heartbeat } from '../sources/heartbeat.js';
import { sensor } from '../sources/sensor.js';
import { vitals } from '../sources/vitals.js';
import { MAX_TIMER_MS } from '../streams/config.js';

const sources: Record<string, (periodMs: number, scheduler?: SchedulerLike) => Observable<unknown>> = {
  heartbeat,
  vitals,
  'sensor temp': (periodMs, scheduler) => sensor('temp', () => 1, periodMs, scheduler),
};

for (const [name, source] of Object.entries(sources)) {
  test(`${name} refuses a period no Node timer honours, naming the argument and the range`, (t) => {
    for (const period of [0, -1, NaN, MAX_TIMER_MS + 1, 3_000_000_000, Infinity]) {
      const error = t.throws(() => source(period), { instanceOf: RangeError }, `${name}(${period})`);
      t.is(error?.message, `${name}: periodMs must be a positive number of ms, at most 2147483647 (the longest timer Node honours), got ${period}`);
    }
  });

  test(`${name} accepts the longest period (nothing within 10 s)`, (t) => {
    const scheduler = new TestScheduler((a, b) => t.deepEqual(a, b));
    scheduler.run(({ expectObservable }) => {
      expectObservable(source(MAX_TIMER_MS, scheduler), '^ 10s !').toBe('');
    });
    t.pass();
  });
}

test('sensor refuses a blank name or a read that is no function at once, naming it, instead of a rejected or an error reading every period for as long as the agent runs', (t) => {
  t.throws(() => sensor('', () => 1, 1000), { instanceOf: TypeError, message: 'sensor: name must be a non-empty string, got ""' });
  t.throws(() => sensor(' ', () => 1, 1000), { instanceOf: TypeError, message: 'sensor: name must be a non-empty string, got " "' });
  t.throws(() => sensor(7 as never, () => 1, 1000), { instanceOf: TypeError, message: 'sensor: name must be a non-empty string, got 7' });
  t.throws(() => sensor('temp', 21 as never, 1000), { instanceOf: TypeError, message: 'sensor temp: read must be a function returning the reading, got 21' });
});
