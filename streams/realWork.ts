/**
 * The real work in flight on a virtual clock: a tool's asynchronous run, and
 * the I/O of its effects, take real time (the thread pool, a socket) that a
 * virtual clock does not see. A clock that steps itself (`flushSettled` in
 * tests, `HoldableClock` in replay and crash recovery) waits before each step
 * until no such work holds it, so a tool settles at the virtual time it was
 * due, as a fast tool does on real time, however many event-loop turns its
 * work needs.
 *
 * Work holds the clock while it is pending and its `holds()` says so: a tool
 * run stops holding while it waits on the clock itself (a `ctx.timeout`
 * timer, a re-run effect that settles on a clock step). Work still holding
 * after `graceMs` of real time (a promise that never settles, a request that
 * hangs) is given up on: it no longer holds the clock, whose next step may
 * then be the run's `toolTimeoutMs`, as on real time. On a scheduler that is
 * not virtual nothing is tracked.
 */
import { VirtualTimeScheduler, type SchedulerLike } from 'rxjs';

/** How long a virtual clock waits, in real ms, for work that still holds it (default of `flushSettled` and replay). */
export const REAL_WORK_GRACE_MS = 2_000;

interface Work {
  holds(): boolean;
  overdue: boolean;
}

const inFlight = new WeakMap<SchedulerLike, Set<Work>>();

/**
 * Makes `promise` hold `scheduler`'s next step while it is pending and
 * `holds()` is true; returns `promise`. Does nothing on a scheduler that is
 * not a VirtualTimeScheduler.
 */
export function holdClockFor<T>(scheduler: SchedulerLike, promise: Promise<T>, holds: () => boolean = () => true): Promise<T> {
  if (!(scheduler instanceof VirtualTimeScheduler)) return promise;
  let works = inFlight.get(scheduler);
  if (!works) inFlight.set(scheduler, (works = new Set()));
  const work: Work = { holds, overdue: false };
  works.add(work);
  const done = (): void => void works.delete(work);
  promise.then(done, done);
  return promise;
}

/**
 * Resolves once no work in flight on `scheduler` holds it, after at least one
 * macrotask turn (so pending promise chains run first); work still holding
 * after `graceMs` of real time is given up on.
 */
export async function realWorkSettled(scheduler: SchedulerLike, graceMs: number = REAL_WORK_GRACE_MS): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const works = inFlight.get(scheduler);
  if (!works) return;
  const holding = (): Work[] => [...works].filter((work) => !work.overdue && work.holds());
  const deadline = performance.now() + graceMs;
  for (let turn = 0; holding().length > 0; turn++) {
    if (performance.now() >= deadline) {
      for (const work of holding()) work.overdue = true;
      return;
    }
    // A few immediate turns for work that is nearly done, then 1 ms naps, so a long wait does not spin the CPU the work needs.
    await new Promise<void>((resolve) => (turn < 8 ? setImmediate(resolve) : setTimeout(resolve, 1)));
  }
}
