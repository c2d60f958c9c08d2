/**
 * vitals: the process's own vitals as a sensor, so the agent senses its own
 * pressure: heap used (MiB), heap used / heap limit, the event loop's
 * utilisation since the previous reading (the share of that time it was busy
 * rather than waiting for I/O or timers, 0–1, from Node's own loop metrics)
 * and how late this reading ran (ms past its due time on the scheduler's
 * clock: a blocked loop delays it). Nothing samples between readings, so an
 * idle agent stays asleep. `periodMs` must be in (0, MAX_TIMER_MS] or it
 * throws a RangeError at once (`--vitals 0` means no vitals source at all).
 *
 *   vitals(5000, s):  ----v----v- …   (v = { heapUsedMiB, heapRatio, loopUtilization, loopLagMs })
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { asyncScheduler, defer, type Observable, type SchedulerLike } from 'rxjs';
import type { SensorSignal } from '../streams/signals.js';
import { sensor } from './sensor.js';
import { timerPeriod } from './timerPeriod.js';

export function vitals(periodMs: number, scheduler: SchedulerLike = asyncScheduler): Observable<SensorSignal> {
  timerPeriod('vitals', periodMs);
  return defer(() => {
    let last = scheduler.now();
    let loop = performance.eventLoopUtilization();
    const read = () => {
      const now = scheduler.now();
      const heap = getHeapStatistics();
      const current = performance.eventLoopUtilization();
      const value = {
        heapUsedMiB: round(heap.used_heap_size / 1048576),
        heapRatio: round(heap.used_heap_size / heap.heap_size_limit),
        loopUtilization: round(performance.eventLoopUtilization(current, loop).utilization),
        loopLagMs: round(Math.max(0, now - last - periodMs)),
      };
      last = now;
      loop = current;
      return value;
    };
    return sensor('vitals', read, periodMs, scheduler);
  });
}

function round(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 1000) / 1000 : 0;
}
