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
  /** Whether the run waits on the scheduler itself: a `timeout` timer is pending, or a promise given to {@link waitOnClock}. */
  readonly waitsOnClock: boolean;
  /** Counts `promise`, while it is pending, as something the run waits on the scheduler for (a re-run effect that settles at a clock step); returns it. */
  waitOnClock<T>(promise: Promise<T>): Promise<T>;
}

export function toolRunScope(scheduler: SchedulerLike): ToolRunScope {
  return new RunScope(scheduler);
}

/** Made per action, so kept cheap: the AbortController and the timers' set are made on first use (most tools use neither). */
class RunScope implements ToolRunScope {
  private run: AbortController | undefined;
  private releases: Set<() => void> | undefined;
  private endedAlready = false;
  private clockWaits = 0;

  constructor(private readonly scheduler: SchedulerLike) {}

  get signal(): AbortSignal {
    return (this.run ??= new AbortController()).signal;
  }

  abort(reason: unknown): void {
    (this.run ??= new AbortController()).abort(reason);
  }

  get ended(): boolean {
    return this.endedAlready;
  }

  get waitsOnClock(): boolean {
    return this.clockWaits > 0 || (this.releases?.size ?? 0) > 0;
  }

  waitOnClock<T>(promise: Promise<T>): Promise<T> {
    this.clockWaits++;
    const settled = (): void => void this.clockWaits--;
    promise.then(settled, settled);
    return promise;
  }

  end(): void {
    this.endedAlready = true;
    this.releases?.forEach((release) => release());
  }

  timeout(ms: number): AbortSignal {
    // Not optional, as checkNumberOption takes it to be: undefined is refused first.
    if (ms === undefined) throw new TypeError(`ctx.timeout ms: expected ${TIMEOUT_MS}, got undefined`);
    checkNumberOption('ctx.timeout', 'ms', ms, timerMs, TIMEOUT_MS);
    const runSignal = this.signal;
    const deadline = new AbortController();
    if (this.endedAlready || runSignal.aborted) {
      deadline.abort(runSignal.aborted ? runSignal.reason : new DOMException('the tool run has ended', 'AbortError'));
      return deadline.signal;
    }
    const releases = (this.releases ??= new Set());
    let timer: Subscription | undefined;
    let released = false;
    const release = (): void => {
      released = true;
      releases.delete(release);
      timer?.unsubscribe();
      runSignal.removeEventListener('abort', onRunAbort);
    };
    const onRunAbort = (): void => {
      release();
      deadline.abort(runSignal.reason);
    };
    releases.add(release);
    runSignal.addEventListener('abort', onRunAbort, { once: true });
    timer = this.scheduler.schedule(() => {
      release();
      deadline.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
    }, ms);
    // A scheduler that ran the action at once (a synchronous one, ms 0) has released it already.
    if (released) timer.unsubscribe();
    return deadline.signal;
  }
}
