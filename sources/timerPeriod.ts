/**
 * The period check shared by the timed sources: a positive number of ms that
 * a Node timer can honour. A longer period (or Infinity) would silently become
 * 1 ms and flood the agent, so it is refused up front.
 */
import { MAX_TIMER_MS } from '../streams/config.js';

/** Returns `periodMs` if it is in (0, MAX_TIMER_MS]; else throws a RangeError naming `source`'s argument. */
export function timerPeriod(source: string, periodMs: number): number {
  if (!(periodMs > 0 && periodMs <= MAX_TIMER_MS)) {
    throw new RangeError(`${source}: periodMs must be a positive number of ms, at most ${MAX_TIMER_MS} (the longest timer Node honours), got ${periodMs}`);
  }
  return periodMs;
}
