/**
 * The cycle driver: while an active goal exists and the agent is not paused,
 * it feeds `tick` signals so cycles run back to back (in bursts of synchronous
 * cycles that yield to I/O after `sliceMs` of scheduler time or `burst`
 * cycles, whichever comes first) or one every `paceMs`,
 * interleaved with external signals in arrival order. Time comes from the
 * injected scheduler only.
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Runtime } from './runtime.js';
import { yieldingScheduler } from './yieldingScheduler.js';
import type { Signal } from './signals.js';

export interface DriverOptions {
  /** Delay between cycles in ms (0: back to back). */
  paceMs: number;
  /** Most synchronous cycles per scheduled burst when `paceMs` is 0. Default 1024. */
  burst?: number;
  /** Scheduler time after which a burst yields to I/O. Default 4 ms. */
  sliceMs?: number;
  /** While this returns true no tick is started (backpressure); call `wake()` when it turns false. Default: never held. */
  held?: () => boolean;
}

export class CycleDriver {
  private scheduled: Subscription | undefined;
  private ticking = false;
  private inBurst = false;
  private halted = false;
  private readonly burst: number;
  private readonly sliceMs: number;
  private readonly scheduler: SchedulerLike;

  constructor(
    private readonly runtime: Runtime,
    private readonly emit: (tick: Signal) => void,
    private readonly options: DriverOptions,
  ) {
    this.scheduler = yieldingScheduler(runtime.scheduler);
    this.burst = options.paceMs > 0 ? 1 : (options.burst ?? 1024);
    this.sliceMs = options.sliceMs ?? 4;
  }

  /** Whether the mind has work a tick would do. */
  get hasWork(): boolean {
    const { mind, config } = this.runtime;
    return !this.halted && !mind.paused && mind.cycle < config.maxCycles && mind.goals.hasActive();
  }

  /** Whether a tick is being processed or scheduled. */
  get busy(): boolean {
    return this.ticking || this.scheduled !== undefined;
  }

  /** Schedules ticks if there is work and none is scheduled or in flight. */
  wake(): void {
    if (this.halted || this.ticking || this.scheduled || this.inBurst || !this.hasWork || this.options.held?.()) return;
    this.scheduled = this.scheduler.schedule(() => this.runBurst(), this.options.paceMs);
  }

  /** Called when a tick's whole chain has been processed. */
  settled(): void {
    this.ticking = false;
    if (!this.inBurst) this.wake();
  }

  /** Stops scheduling ticks for good. */
  halt(): void {
    this.halted = true;
    this.scheduled?.unsubscribe();
    this.scheduled = undefined;
  }

  private runBurst(): void {
    this.scheduled = undefined;
    this.inBurst = true;
    try {
      const start = this.scheduler.now();
      for (let n = 0; n < this.burst && !this.ticking && this.hasWork && !this.options.held?.() && this.scheduler.now() - start < this.sliceMs; n++) {
        this.ticking = true;
        this.emit({ type: 'tick', depth: 0, meta: { source: 'driver' }, at: this.scheduler.now() });
      }
    } finally {
      this.inBurst = false;
    }
    if (!this.ticking) this.wake();
  }
}
