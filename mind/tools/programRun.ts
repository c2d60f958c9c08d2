/**
 * Runs a program (argument array, no shell) for shell_exec and stops it as a
 * whole: the program leads its own process group, and a timeout or an output
 * over the cap kills that group with SIGKILL — the program and everything it
 * started (a `sh -c` child, a pipeline, a background job). Node's execFile
 * only sent SIGTERM to the program itself: its children outlived the timeout,
 * and a program that ignored SIGTERM ran on, the tool waiting for it. The
 * group is killed too if this process exits while the program runs (it no
 * longer shares our group, so a Ctrl-C on the terminal does not reach it).
 * Standard input is empty, so a program that reads it ends instead of waiting.
 * This is real I/O, so it uses a Node timer.
 */
import { spawn } from 'node:child_process';

export interface ProgramLimits {
  timeoutMs: number;
  /** Bytes kept per output stream; more stops the program. */
  maxBytes: number;
}

export interface ProgramResult {
  /** The exit code; null when the program was stopped or ended by a signal. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why the program was stopped: it ran out of time, or wrote more than `maxBytes` to that stream. */
  stopped?: 'timeout' | 'stdout' | 'stderr';
}

/** How to kill each program still running, for when this process exits (one listener, however many run). */
const running = new Set<() => void>();
const killRunning = (): void => running.forEach((kill) => kill());

/** Resolves when the program has ended (or been stopped); rejects with the errno error when it cannot be started. */
export function runProgram(command: string, args: readonly string[], { timeoutMs, maxBytes }: ProgramLimits): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    const ownGroup = process.platform !== 'win32';
    const child = spawn(command, args, { shell: false, detached: ownGroup, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const kept = { stdout: 0, stderr: 0 };
    let stopped: ProgramResult['stopped'];

    const killGroup = (): void => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const stop = (why: NonNullable<ProgramResult['stopped']>): void => {
      if (stopped) return;
      stopped = why;
      killGroup();
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
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    if (running.size === 0) process.once('exit', killRunning);
    running.add(killGroup);
    const settle = (): void => {
      clearTimeout(timer);
      running.delete(killGroup);
      if (running.size === 0) process.removeListener('exit', killRunning);
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
