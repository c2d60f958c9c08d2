/**
 * A start-up that can be interrupted: what happens before a run runs (opening
 * its store, restoring a session, re-applying a crashed session's signals) says
 * what it is doing, and stops at its next step once interrupted — the CLI's
 * SIGINT / SIGTERM before the run starts. Nothing of the run is written by
 * then; whoever opened the store closes it.
 */

/** Thrown by the step a {@link StartUp} was interrupted before; `doing` is what it was doing. */
export class StartInterrupted extends Error {
  override name = 'StartInterrupted';
  constructor(
    readonly reason: string,
    readonly doing: string,
  ) {
    super(`start-up interrupted (${reason}) while ${doing}`);
  }
}

export class StartUp {
  private reason: string | undefined;
  private readonly aborter = new AbortController();
  /** What the start-up is doing, for messages (`opening store ./ooda.db`, …). */
  doing = 'starting';

  /** Aborted once interrupted: for a step that waits (another writer's lock) to stop waiting. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  /** Asks the start-up to stop at its next step; `reason` says why (`SIGINT`). */
  interrupt(reason: string): void {
    this.reason ??= reason;
    this.aborter.abort(reason);
  }

  /** Throws {@link StartInterrupted} once {@link interrupt} was called. */
  check(): void {
    if (this.reason !== undefined) throw new StartInterrupted(this.reason, this.doing);
  }

  /** Goes on to the next step, `doing`, unless interrupted ({@link check}). */
  step(doing: string): void {
    this.check();
    this.doing = doing;
  }
}
