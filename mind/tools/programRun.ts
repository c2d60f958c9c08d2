/**
 * Runs a program (argument array, no shell) for shell_exec and stops it as a
 * whole: the program leads its own process group, and an aborted signal (its
 * timeout) or an output over the cap kills that group with SIGKILL — the
 * program and everything it started (a `sh -c` child, a pipeline, a
 * background job). Node's execFile
 * only sent SIGTERM to the program itself: its children outlived the timeout,
 * and a program that ignored SIGTERM ran on, the tool waiting for it. Signals
 * this process gets (Ctrl-C) are passed on to the group, and the group is
 * killed if this process exits while it runs (runningPrograms.ts).
 * Standard input is empty, so a program that reads it ends instead of waiting.
 * The time limit is the caller's signal (shell_exec's comes from
 * `ToolContext.timeout`, on the runtime's scheduler): no timer here.
 *
 * Limit: a process that leaves the group — it calls setsid() or setpgid()
 * (the `setsid` program, a daemon that detaches) — is not killed, nor sent
 * the signals passed on, and runs on after the tool has ended. Containing it
 * needs a PID namespace, a cgroup or a child subreaper, none of which Node
 * reaches without a native module. If it keeps stdout or stderr open, the
 * run still ends at the timeout (the pipes are closed then).
 */
import { spawn } from 'node:child_process';
import { track } from './runningPrograms.js';

export interface ProgramLimits {
  /** Stops the program when it aborts: `timeout` for a `TimeoutError` reason, `aborted` for any other. */
  signal: AbortSignal;
  /** Bytes kept per output stream; more stops the program. */
  maxBytes: number;
}

export interface ProgramResult {
  /** The exit code; null when the program was stopped or ended by a signal. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why the program was stopped: it ran out of time, its run was given up on (the signal aborted otherwise), or it wrote more than `maxBytes` to that stream. */
  stopped?: 'timeout' | 'aborted' | 'stdout' | 'stderr';
}

/** Resolves when the program has ended (or been stopped); rejects with the errno error when it cannot be started. */
export function runProgram(command: string, args: readonly string[], { signal, maxBytes }: ProgramLimits): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    const ownGroup = process.platform !== 'win32';
    const child = spawn(command, args, { shell: false, detached: ownGroup, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const kept = { stdout: 0, stderr: 0 };
    let stopped: ProgramResult['stopped'];

    const signalGroup = (signal: NodeJS.Signals): void => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (why: NonNullable<ProgramResult['stopped']>): void => {
      if (stopped) return;
      stopped = why;
      signalGroup('SIGKILL');
      // A process that left the group may still hold the pipes; stop reading so the run can end.
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const collect = (stream: 'stdout' | 'stderr') => (chunk: Buffer): void => {
      const room = maxBytes - kept[stream];
      output[stream].push(chunk.subarray(0, room));
      kept[stream] += Math.min(chunk.byteLength, room);
      if (chunk.byteLength > room) stop(stream);
    };
    child.stdout.on('data', collect('stdout'));
    child.stderr.on('data', collect('stderr'));
    const onAbort = (): void => stop((signal.reason as Error | undefined)?.name === 'TimeoutError' ? 'timeout' : 'aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    const untrack = track(signalGroup);
    const settle = (): void => {
      signal.removeEventListener('abort', onAbort);
      untrack();
    };
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('close', (code) => {
      settle();
      const text = (stream: 'stdout' | 'stderr'): string => Buffer.concat(output[stream]).toString('utf8');
      resolve({ exitCode: stopped ? null : code, stdout: text('stdout'), stderr: text('stderr'), ...(stopped ? { stopped } : {}) });
    });
  });
}
