/**
 * One step of a virtual clock with promises let settle first: waits a
 * macrotask turn (so an async tool's pending promise chain runs, as it would
 * have before the next timer on real time) and for the real work that holds
 * the clock (streams/realWork.ts: a tool's I/O or thread-pool work, up to
 * `graceMs` of real time), then runs the next due action.
 * `HoldableClock.run` (replay) and `flushSettled` (tests) step with it.
 *
 * Resolves true when it ran an action; false when none is due, or `stop()`
 * (asked once one is due; it may throw instead) says to stop. An action's
 * error unsubscribes the rest of the queue and is thrown, as
 * VirtualTimeScheduler's `flush()` does.
 */
import type { VirtualTimeScheduler } from 'rxjs';
import { realWorkSettled } from './realWork.js';

export async function settledStep(scheduler: VirtualTimeScheduler, stop: () => boolean = () => false, graceMs?: number): Promise<boolean> {
  await realWorkSettled(scheduler, graceMs);
  const { actions } = scheduler;
  const action = actions[0];
  if (!action || action.delay > scheduler.maxFrames || stop()) return false;
  actions.shift();
  scheduler.frame = action.delay;
  const error = action.execute(action.state, action.delay);
  if (error) {
    for (let rest = actions.shift(); rest; rest = actions.shift()) rest.unsubscribe();
    throw error;
  }
  return true;
}
