/**
 * vitals: the process's own vitals as a sensor, so the agent senses its own
 * pressure: heap used (MiB), heap used / heap limit, and event-loop delay
 * (p99 and max over the period, ms) from Node's event-loop-delay histogram.
 * `periodMs` must be in (0, MAX_TIMER_MS] or it throws a RangeError at once
 * (`--vitals 0` means no vitals source at all).
 *
 *   vitals(5000, s):  ----v----v- …   (v = { heapUsedMiB, heapRatio, loopDelayP99Ms, loopDelayMaxMs })
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { asyncScheduler, defer, finalize, type Observable, type SchedulerLike } from 'rxjs';
import type { SensorSignal } from '../streams/signals.js';
import { sensor } from './sensor.js';
import { timerPeriod } from './timerPeriod.js';

export function vitals(periodMs: number, scheduler: SchedulerLike = asyncScheduler): Observable<SensorSignal> {
  timerPeriod('vitals', periodMs);
  return defer(() => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const read = () => {
      const heap = getHeapStatistics();
      const value = {
        heapUsedMiB: round(heap.used_heap_size / 1048576),
        heapRatio: round(heap.used_heap_size / heap.heap_size_limit),
        loopDelayP99Ms: round(delay.percentile(99) / 1e6),
        loopDelayMaxMs: round(delay.max / 1e6),
      };
      delay.reset();
      return value;
    };
    return sensor('vitals', read, periodMs, scheduler).pipe(finalize(() => delay.disable()));
  });
}

function round(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 1000) / 1000 : 0;
}
