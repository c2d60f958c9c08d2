/**
 * A virtual clock that can be held: `run()` runs the queued actions in time
 * order, as VirtualTimeScheduler's `flush()` does, but stops before the next
 * one once the action running calls `hold()`. The queue stays as it is (what
 * is scheduled meanwhile joins it in order), so the caller can do
 * asynchronous work — a replay reads the next page of signals — and then go
 * on where it stopped. Before each action it lets pending promises settle
 * (one macrotask turn, and the real work that holds the clock: see
 * streams/realWork.ts), as `flushSettled` does in tests: an async tool's
 * result arrives at the virtual time it was due, not after a synchronous
 * flush has run past the tool's timeout. And it waits for the work it is
 * given to `wait` for (a replay reading a recorded effect), so what that
 * work schedules runs in its place in time.
 */
import { VirtualTimeScheduler } from 'rxjs';
import { settledStep } from './settledStep.js';

export class HoldableClock extends VirtualTimeScheduler {
  private held = false;
  private readonly waitingFor = new Set<Promise<void>>();

  /** Stops the run in progress once the running action returns. */
  hold(): void {
    this.held = true;
  }

  /** Keeps the clock from running its next action until `work` settles; returns `work`. */
  wait<T>(work: Promise<T>): Promise<T> {
    const settled: Promise<void> = work.then(
      () => void this.waitingFor.delete(settled),
      () => void this.waitingFor.delete(settled),
    );
    this.waitingFor.add(settled);
    return work;
  }

  /**
   * Runs the queued actions in time order until the queue is empty (and
   * nothing is waited for) or the clock is held, letting pending promises
   * and real work settle before each one.
   */
  async run(): Promise<void> {
    this.held = false;
    for (;;) {
      if (await settledStep(this, () => this.held || this.waitingFor.size > 0)) continue;
      if (this.held || this.waitingFor.size === 0) return;
      await Promise.all(this.waitingFor);
    }
  }
}
