/**
 * schedulerClock: the agent's reading of its scheduler's time. A scheduler
 * whose clock goes bad (`now()` gives NaN, an infinity or no number at all)
 * stamped every event and stored row with it: the store refused them all,
 * working memory refused its entries (a critical error each cycle), and the
 * cycle driver, which measures its bursts on the clock, ran empty bursts for
 * ever. A reading that is no finite number is replaced by the last finite
 * one (0 before any), so the run goes on with its times in order, and the
 * first such reading is reported once (`onBroken`, given the words to say).
 */
import type { SchedulerLike } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';

/** A function reading `scheduler.now()` that always gives a finite time (see the module doc). */
export function schedulerClock(scheduler: SchedulerLike, onBroken: (message: string) => void): () => number {
  let last: number | undefined;
  let told = false;
  return () => {
    const now: unknown = scheduler.now();
    if (Number.isFinite(now)) return (last = now as number);
    if (!told) {
      told = true;
      const held = last === undefined ? 'at 0, since it gave none before,' : `at the last it gave, ${last},`;
      onBroken(`the scheduler's clock gave ${describeValue(now)}, not a time in ms: the agent's times stay ${held} until it gives one again (said once)`);
    }
    return last ?? 0;
  };
}
