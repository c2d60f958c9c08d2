/**
 * sensor: polls `read()` every `periodMs` and emits a `sensor` signal with the
 * value. A read that throws, or returns what a sensor signal cannot carry
 * (sources/sensorReading.ts), yields `{ error: message }` as the value, so a
 * failing sensor is visible and never ends the stream. A blank `name` or a
 * `read` that is no function throws a TypeError at once: every reading would
 * otherwise be rejected, or be `{ error: 'read is not a function' }`, for as
 * long as the agent runs.
 *
 *   sensor('temp', read, 100, s):  ---v---v---v- …
 */
import { asyncScheduler, interval, map, type Observable, type SchedulerLike } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import type { SensorSignal } from '../streams/signals.js';
import { sensorReading, type SensorValue } from './sensorReading.js';
import { timerPeriod } from './timerPeriod.js';

export function sensor(
  name: string,
  read: () => SensorValue,
  periodMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<SensorSignal> {
  if (typeof name !== 'string' || name.trim() === '') throw new TypeError(`sensor: name must be a non-empty string, got ${describeValue(name)}`);
  if (typeof read !== 'function') throw new TypeError(`sensor ${name}: read must be a function returning the reading, got ${describeValue(read)}`);
  return interval(timerPeriod(`sensor ${name}`, periodMs), scheduler).pipe(
    map((): SensorSignal => ({ type: 'sensor', sensor: name, value: sensorReading(read), depth: 0, meta: { source: `sensor:${name}` }, at: scheduler.now() })),
  );
}
