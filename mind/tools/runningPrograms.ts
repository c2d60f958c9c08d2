/**
 * The programs shell_exec is running, each the leader of its own process group
 * (see programRun.ts). A group of its own means a Ctrl-C on the terminal, or a
 * SIGTERM/SIGHUP sent to this process, no longer reaches the program, so this
 * passes them on: while programs run, SIGINT, SIGTERM and SIGHUP received here
 * are sent to every group. When nothing else in this process listens for the
 * signal, Node's default is kept: after passing it on, this process ends by
 * that signal, as it would have. When this process exits, every group still
 * running gets SIGKILL. One listener per signal, however many programs run;
 * none once the last one ends.
 */

/** Sends a signal to one program's whole group. */
export type SignalGroup = (signal: NodeJS.Signals) => void;

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const running = new Set<SignalGroup>();

const killAll = (): void => running.forEach((signalGroup) => signalGroup('SIGKILL'));

function forward(signal: NodeJS.Signals): void {
  running.forEach((signalGroup) => signalGroup(signal));
  if (process.listenerCount(signal) === 1) {
    // Ours is the only listener: end this process by the signal, as Node would have without it.
    stopListening();
    process.kill(process.pid, signal);
  }
}

function startListening(): void {
  process.on('exit', killAll);
  for (const signal of FORWARDED) process.on(signal, forward);
}

function stopListening(): void {
  process.removeListener('exit', killAll);
  for (const signal of FORWARDED) process.removeListener(signal, forward);
}

/** Tracks a running program until the returned function is called (when it has ended). */
export function track(signalGroup: SignalGroup): () => void {
  if (running.size === 0) startListening();
  running.add(signalGroup);
  return () => {
    if (running.delete(signalGroup) && running.size === 0) stopListening();
  };
}
