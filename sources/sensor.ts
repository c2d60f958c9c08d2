/**
 * sensor: polls `read()` every `periodMs` and emits a `sensor` signal with the
 * value. A read that throws, or returns what a sensor signal cannot carry
 * (sources/sensorReading.ts), yields `{ error: message }` as the value, so a
 * failing sensor is visible and never ends the stream.
 *
 *   sensor('temp', read, 100, s):  ---v---v---v- …
 */
import { asyncScheduler, interval, map, type Observable, type SchedulerLike } from 'rxjs';
import type { SensorSignal } from '../streams/signals.js';
import { sensorReading, type SensorValue } from './sensorReading.js';
import { timerPeriod } from './timerPeriod.js';

export function sensor(
  name: string,
  read: () => SensorValue,
  periodMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<SensorSignal> {
  return interval(timerPeriod(`sensor ${name}`, periodMs), scheduler).pipe(
    map((): SensorSignal => ({ type: 'sensor', sensor: name, value: sensorReading(read), depth: 0, meta: { source: `sensor:${name}` }, at: scheduler.now() })),
  );
}
