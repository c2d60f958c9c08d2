/**
 * What SIGINT and SIGTERM do while no command handles them itself, before a
 * run starts and after it has ended (bin/lifecycle.ts handles them in
 * between): end the process with the signal's exit code (130 / 143) and a
 * line saying when it came (`ooda: SIGINT received before the command
 * started: nothing was written: exiting`), rather than be killed by it.
 */

let exiting: ((signal: NodeJS.Signals) => void) | undefined;

/** From now on, SIGINT / SIGTERM exit at once, saying they came `when`. */
export function exitOnSignals(when: string): void {
  stopExitingOnSignals();
  exiting = (signal) => {
    process.stderr.write(`ooda: ${signal} received ${when}: exiting\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', exiting);
  process.on('SIGTERM', exiting);
}

/** Hands SIGINT / SIGTERM over to a handler of the caller's; returns whether they were exiting until now. */
export function stopExitingOnSignals(): boolean {
  if (!exiting) return false;
  process.off('SIGINT', exiting);
  process.off('SIGTERM', exiting);
  exiting = undefined;
  return true;
}
