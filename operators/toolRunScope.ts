/**
 * The time and cancellation one tool run gets from the runtime (the
 * `signal` and `timeout` of its ToolContext). Both follow the injected
 * scheduler, never a Node timer: `timeout(ms)` aborts after `ms` of
 * scheduler time — real time on the default asyncScheduler, virtual time on
 * a VirtualTimeScheduler or TestScheduler (a flush that runs every queued
 * action reaches the deadline at once, however long a real program or
 * request has actually had). `signal` aborts when act stops waiting for the
 * run: its `toolTimeoutMs` passed, or the run abandoned the pass; every
 * `timeout` signal aborts with it. When the run ends, its timers are
 * released (a pending one would hold the scheduler, and Node, for nothing).
 */
import { getEventListeners } from 'node:events';
import type { SchedulerLike, Subscription } from 'rxjs';
import { MAX_TIMER_MS } from '../mind/config.js';
import { checkNumberOption, numberBetween } from '../mind/optionCheck.js';

/** What `ctx.timeout` takes. */
const TIMEOUT_MS = `a number of ms from 0 to ${MAX_TIMER_MS}`;
const timerMs = numberBetween(0, MAX_TIMER_MS);

/** What a tool sees (ToolContext's `signal` and `timeout`) plus the controls act keeps. */
export interface ToolRunScope {
  /** Aborted when act stops waiting for the run (see {@link ToolRunScope.abort}). */
  readonly signal: AbortSignal;
  /**
   * A signal aborted after `ms` of scheduler time (a `TimeoutError` DOMException, like a Node timeout signal), or with `signal`'s reason when that aborts first.
   * An `ms` no timer can honour (none, NaN, negative, over 2^31 − 1) throws a TypeError or RangeError naming it: a real timer would fire at once.
   */
  timeout(ms: number): AbortSignal;
  /** Aborts `signal` with `reason`: act has given up on the run, so its I/O should stop. */
  abort(reason: unknown): void;
  /** Releases the run's timers; a `timeout` asked for afterwards is aborted at once. */
  end(): void;
  /** Whether {@link end} was called. */
  readonly ended: boolean;
  /**
   * Whether the run waits on the scheduler: something listens for `signal`,
   * or for a pending `timeout` signal, to abort (a sleep on `ctx.timeout`, a
   * wait for act to give up, a re-run effect settling at a clock step). A
   * deadline that nothing listens to (a time limit checked by `aborted`) is
   * not a wait: the run's real work goes on meanwhile.
   */
  readonly waitsOnClock: boolean;
}

export function toolRunScope(scheduler: SchedulerLike): ToolRunScope {
  return new RunScope(scheduler);
}

/** Whether anything listens for `signal` to abort. */
const listened = (signal: AbortSignal): boolean => getEventListeners(signal, 'abort').length > 0;

/** Made per action, so kept cheap: the AbortController and the timers' map are made on first use (most tools use neither). */
class RunScope implements ToolRunScope {
  private run: AbortController | undefined;
  /** The pending `timeout` signals' controllers, with their timers. */
  private deadlines: Map<AbortController, Subscription> | undefined;
  private endedAlready = false;

  constructor(private readonly scheduler: SchedulerLike) {}

  get signal(): AbortSignal {
    return (this.run ??= new AbortController()).signal;
  }

  abort(reason: unknown): void {
    (this.run ??= new AbortController()).abort(reason);
    const pending = [...(this.deadlines ?? [])];
    this.deadlines?.clear();
    for (const [deadline, timer] of pending) {
      timer.unsubscribe();
      deadline.abort(reason);
    }
  }

  get ended(): boolean {
    return this.endedAlready;
  }

  get waitsOnClock(): boolean {
    if (this.run && listened(this.run.signal)) return true;
    for (const deadline of this.deadlines?.keys() ?? []) if (listened(deadline.signal)) return true;
    return false;
  }

  end(): void {
    this.endedAlready = true;
    for (const timer of this.deadlines?.values() ?? []) timer.unsubscribe();
    this.deadlines?.clear();
  }

  timeout(ms: number): AbortSignal {
    // Not optional, as checkNumberOption takes it to be: undefined is refused first.
    if (ms === undefined) throw new TypeError(`ctx.timeout ms: expected ${TIMEOUT_MS}, got undefined`);
    checkNumberOption('ctx.timeout', 'ms', ms, timerMs, TIMEOUT_MS);
    const deadline = new AbortController();
    if (this.endedAlready || this.run?.signal.aborted) {
      deadline.abort(this.run?.signal.aborted ? this.run.signal.reason : new DOMException('the tool run has ended', 'AbortError'));
      return deadline.signal;
    }
    const deadlines = (this.deadlines ??= new Map());
    const timer = this.scheduler.schedule(() => {
      deadlines.delete(deadline);
      deadline.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
    }, ms);
    // A scheduler that ran the action at once (a synchronous one, ms 0) has aborted it already.
    if (deadline.signal.aborted) timer.unsubscribe();
    else deadlines.set(deadline, timer);
    return deadline.signal;
  }
}
