/**
 * sensor: polls `read()` every `periodMs` and emits a `sensor` signal with the
 * value. A read that throws yields `{ error: message }` as the value, so a
 * failing sensor is visible and never ends the stream.
 *
 *   sensor('temp', read, 100, s):  ---v---v---v- …
 */
import { asyncScheduler, interval, map, type Observable, type SchedulerLike } from 'rxjs';
import type { SensorSignal } from '../streams/signals.js';
import { timerPeriod } from './timerPeriod.js';

export type SensorValue = SensorSignal['value'];

export function sensor(
  name: string,
  read: () => SensorValue,
  periodMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<SensorSignal> {
  return interval(timerPeriod(`sensor ${name}`, periodMs), scheduler).pipe(
    map((): SensorSignal => {
      let value: SensorValue;
      try {
        value = read();
      } catch (error) {
        value = { error: error instanceof Error ? error.message : String(error) };
      }
      return { type: 'sensor', sensor: name, value, depth: 0, meta: { source: `sensor:${name}` }, at: scheduler.now() } as SensorSignal;
    }),
  );
}
