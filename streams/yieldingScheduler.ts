/**
 * The driver's scheduler: the agent's own scheduler, except that on the real
 * clock (`asyncScheduler`) a zero-delay schedule yields with `setImmediate`
 * rather than a timer, so back-to-back cycle bursts let I/O in without the
 * ~1 ms floor of `setTimeout(0)`. Virtual-time schedulers are used as they are.
 */
import { asyncScheduler, Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

export function yieldingScheduler(base: SchedulerLike): SchedulerLike {
  if (base !== asyncScheduler) return base;
  const scheduler: SchedulerLike = {
    now: () => base.now(),
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      if (delay > 0) return base.schedule(work, delay, state);
      const subscription = new Subscription();
      const action = Object.assign(subscription, {
        schedule: (next?: T, nextDelay?: number) => scheduler.schedule(work, nextDelay, next),
      }) as SchedulerAction<T>;
      const handle = setImmediate(() => {
        if (!subscription.closed) work.call(action, state);
      });
      subscription.add(() => clearImmediate(handle));
      return subscription;
    },
  };
  return scheduler;
}
