/**
 * Who handles SIGINT, SIGTERM and SIGHUP (the terminal closing: a run in an
 * ssh session that drops gets it, and Node's default ended the process on the
 * spot, its queued rows unwritten). While no command handles them itself —
 * the CLI's modules loading, a command that does not run the agent, a run
 * before it starts and after it has ended (bin/lifecycle.ts handles them in
 * between) — they end the process with the signal's exit code (130 / 143 /
 * 129: 128 + its number) and a line saying when it came (`ooda: SIGINT
 * received before the command started: nothing was written: exiting`, `…
 * while ooda events ran: …`), rather than kill it.
 *
 * The process keeps one listener for as long as anyone handles them, and a
 * hand-over only changes where it sends them. A signal is taken when it comes
 * but handled only once the event loop gets to it, by the signal watcher open
 * when it came, which Node closes with the last listener: removing the old
 * listener before adding the new one, while the thread was busy (the CLI's
 * modules loading), dropped the signal, and the run went on as if it had
 * never been sent.
 */

import { constants } from 'node:os';

type SignalHandler = (signal: NodeJS.Signals) => void;

/** The signals the CLI handles. */
const HANDLED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The exit code for ending on `signal`, as a shell reports a process it killed: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

let current: SignalHandler | undefined;
let exiting = false;
const dispatch: SignalHandler = (signal) => current?.(signal);

/** Sends SIGINT / SIGTERM / SIGHUP to `handler` from now on (none: the process's default again). */
function sendSignalsTo(handler: SignalHandler | undefined): void {
  if (handler && !current) {
    for (const signal of HANDLED) process.on(signal, dispatch);
  } else if (!handler && current) {
    for (const signal of HANDLED) process.off(signal, dispatch);
  }
  current = handler;
}

/** From now on, SIGINT / SIGTERM / SIGHUP exit at once, saying they came `when`. */
export function exitOnSignals(when: string): void {
  exiting = true;
  sendSignalsTo((signal) => {
    process.stderr.write(`ooda: ${signal} received ${when}: exiting\n`);
    process.exit(signalExitCode(signal));
  });
}

/**
 * Hands SIGINT / SIGTERM / SIGHUP over to `handler` (none: back to the process's
 * default), a signal not yet handled included; returns whether they were
 * exiting until now.
 */
export function handSignalsTo(handler: SignalHandler | undefined): boolean {
  const wasExiting = exiting;
  exiting = false;
  sendSignalsTo(handler);
  return wasExiting;
}
