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

/** What a tool sees (ToolContext's `signal` and `timeout`) plus the controls act keeps. */
export interface ToolRunScope {
  /** Aborted when act stops waiting for the run (see {@link ToolRunScope.abort}). */
  readonly signal: AbortSignal;
  /** A signal aborted after `ms` of scheduler time (a `TimeoutError` DOMException, like a Node timeout signal), or with `signal`'s reason when that aborts first. */
  timeout(ms: number): AbortSignal;
  /** Aborts `signal` with `reason`: act has given up on the run, so its I/O should stop. */
  abort(reason: unknown): void;
  /** Releases the run's timers; a `timeout` asked for afterwards is aborted at once. */
  end(): void;
}

export function toolRunScope(scheduler: SchedulerLike): ToolRunScope {
  const run = new AbortController();
  const releases = new Set<() => void>();
  let ended = false;

  const timeout = (ms: number): AbortSignal => {
    const deadline = new AbortController();
    if (ended || run.signal.aborted) {
      deadline.abort(run.signal.aborted ? run.signal.reason : new DOMException('the tool run has ended', 'AbortError'));
      return deadline.signal;
    }
    let timer: Subscription | undefined;
    let released = false;
    const release = (): void => {
      released = true;
      releases.delete(release);
      timer?.unsubscribe();
      run.signal.removeEventListener('abort', onRunAbort);
    };
    const onRunAbort = (): void => {
      release();
      deadline.abort(run.signal.reason);
    };
    releases.add(release);
    run.signal.addEventListener('abort', onRunAbort, { once: true });
    timer = scheduler.schedule(() => {
      release();
      deadline.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
    }, ms);
    // A scheduler that ran the action at once (a synchronous one, ms 0) has released it already.
    if (released) timer.unsubscribe();
    return deadline.signal;
  };

  return {
    signal: run.signal,
    timeout,
    abort: (reason) => run.abort(reason),
    end: () => {
      ended = true;
      releases.forEach((release) => release());
    },
  };
}
