/**
 * The cycle driver: while an active goal exists and the agent is not paused,
 * it feeds `tick` signals so cycles run back to back (in bursts of synchronous
 * cycles that yield to I/O after `sliceMs` of scheduler time or `burst`
 * cycles, whichever comes first) or one every `paceMs`,
 * interleaved with external signals in arrival order. Time comes from the
 * injected scheduler only.
 *
 * Bursts are short (1 ms by default) because everything else on the event
 * loop waits for their end: a line on stdin, a WebSocket command, and each
 * statement of the store's transactions (the `sqlite3` driver hands the next
 * statement over only in a turn of the loop). With 4 ms bursts a persisted
 * run's transactions took about 100 ms (median), so about that much more was
 * lost to a `kill -9`; with 1 ms, 10–13 ms, for no loss of cycles/s beyond
 * the runs' spread.
 *
 * A tick whose pass did not start a cycle (nothing was decided: a custom cycle
 * operator without decide) stalls the driver: it ticks again only once
 * something else wakes it (the next signal's pass, a release of the hold),
 * instead of spinning on ticks that change nothing.
 *
 * Its options are checked as it is made, naming the bad one: a `burst` or
 * `sliceMs` that lets no tick into a burst (0, NaN) would reschedule empty
 * bursts for ever without ticking once.
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import { MAX_TIMER_MS } from '../mind/config.js';
import { checkNumberOption, checkTypeOption, wholeNumber } from '../mind/optionCheck.js';
import type { Runtime } from './runtime.js';
import { yieldingScheduler } from './yieldingScheduler.js';
import type { Signal } from './signals.js';

export interface DriverOptions {
  /** Delay between cycles in ms (0: back to back). */
  paceMs: number;
  /** Most synchronous cycles per scheduled burst when `paceMs` is 0. Default 1024. */
  burst?: number;
  /** Scheduler time after which a burst yields to I/O. Default 1 ms. */
  sliceMs?: number;
  /** While this returns true no tick is started (backpressure); call `wake()` when it turns false. Default: never held. */
  held?: () => boolean;
}

export class CycleDriver {
  private scheduled: Subscription | undefined;
  private ticking = false;
  private inBurst = false;
  private halted = false;
  /** The cycle count when the last tick was fed; a tick that settles with it unchanged stalls the driver. */
  private cycleAtTick = -1;
  private stalled = false;
  private readonly burst: number;
  private readonly sliceMs: number;
  private readonly scheduler: SchedulerLike;

  constructor(
    private readonly runtime: Runtime,
    private readonly emit: (tick: Signal) => void,
    private readonly options: DriverOptions,
  ) {
    checkNumberOption('CycleDriver', 'paceMs', options.paceMs, wholeNumber(0, MAX_TIMER_MS), `a whole number of ms from 0 to ${MAX_TIMER_MS}`);
    checkNumberOption('CycleDriver', 'burst', options.burst, wholeNumber(1), 'a whole number of cycles ≥ 1');
    checkNumberOption('CycleDriver', 'sliceMs', options.sliceMs, (ms) => ms > 0, 'a number of ms > 0');
    checkTypeOption('CycleDriver', 'held', options.held, 'function');
    this.scheduler = yieldingScheduler(runtime.scheduler);
    this.burst = options.paceMs > 0 ? 1 : (options.burst ?? 1024);
    this.sliceMs = options.sliceMs ?? 1;
  }

  /** Whether the mind has work a tick would do. */
  get hasWork(): boolean {
    const { mind, config } = this.runtime;
    return !this.halted && !this.stalled && !mind.paused && mind.cycle < config.maxCycles && mind.goals.hasActive();
  }

  /** Whether the last tick started no cycle, and nothing has woken the driver since. */
  get isStalled(): boolean {
    return this.stalled;
  }

  /** Whether a tick is being processed or scheduled. */
  get busy(): boolean {
    return this.ticking || this.scheduled !== undefined;
  }

  /** Something happened besides ticks (a signal's pass, a released hold, the start): ends a stall and schedules ticks. */
  wake(): void {
    this.stalled = false;
    this.schedule();
  }

  /** Schedules ticks if there is work and none is scheduled or in flight. */
  private schedule(): void {
    if (this.halted || this.ticking || this.scheduled || this.inBurst || !this.hasWork || this.options.held?.()) return;
    this.scheduled = this.scheduler.schedule(() => this.runBurst(), this.options.paceMs);
  }

  /** Called when a tick's whole chain has been processed. */
  settled(): void {
    this.ticking = false;
    if (this.runtime.mind.cycle === this.cycleAtTick) this.stalled = true;
    else if (!this.inBurst) this.schedule();
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
      const start = this.runtime.clock();
      for (let n = 0; n < this.burst && !this.ticking && this.hasWork && !this.options.held?.() && this.runtime.clock() - start < this.sliceMs; n++) {
        this.ticking = true;
        this.cycleAtTick = this.runtime.mind.cycle;
        this.emit({ type: 'tick', depth: 0, meta: { source: 'driver' }, at: this.runtime.clock() });
      }
    } finally {
      this.inBurst = false;
    }
    if (!this.ticking) this.schedule();
  }
}
