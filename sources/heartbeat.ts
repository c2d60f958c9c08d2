/**
 * heartbeat: a `heartbeat` signal every `periodMs` on the given scheduler
 * (seed 004: 60 s). It never completes by itself; the agent stops it first on
 * shutdown, so it never keeps a finished run alive. `periodMs` must be in
 * (0, MAX_TIMER_MS] or it throws a RangeError (the config's `heartbeatMs: 0`
 * means no heartbeat source at all).
 *
 *   heartbeat(1000, s):  ---------1---------2--- …   (one beat per second)
 */
import { asyncScheduler, interval, map, type Observable, type SchedulerLike } from 'rxjs';
import type { HeartbeatSignal } from '../streams/signals.js';
import { timerPeriod } from './timerPeriod.js';

export function heartbeat(periodMs: number, scheduler: SchedulerLike = asyncScheduler): Observable<HeartbeatSignal> {
  return interval(timerPeriod('heartbeat', periodMs), scheduler).pipe(
    map((n) => ({ type: 'heartbeat', beat: n + 1, depth: 0, meta: { source: 'heartbeat' }, at: scheduler.now() })),
  );
}
