/**
 * A virtual clock that can be held: `flush()` runs the queued actions in time
 * order, as VirtualTimeScheduler's does, but stops before the next one once the
 * action running calls `hold()`. The queue stays as it is (what is scheduled
 * meanwhile joins it in order), so the caller can do asynchronous work — a
 * replay reads the next page of signals — and then go on where it stopped.
 */
import { VirtualTimeScheduler } from 'rxjs';

export class HoldableClock extends VirtualTimeScheduler {
  private held = false;

  /** Stops the flush in progress once the running action returns. */
  hold(): void {
    this.held = true;
  }

  /** Runs the queued actions in time order until the queue is empty or the clock is held. */
  override flush(): void {
    this.held = false;
    const { actions } = this;
    let error: unknown;
    let action: (typeof actions)[number] | undefined;
    while (!this.held && (action = actions[0]) && action.delay <= this.maxFrames) {
      actions.shift();
      this.frame = action.delay;
      if ((error = action.execute(action.state, action.delay))) break;
    }
    if (error) {
      while ((action = actions.shift())) action.unsubscribe();
      throw error;
    }
  }
}
