/**
 * Helpers for tests of processes (the CLI, programs the agent starts): whether
 * a process still runs, whether it holds a file open, and a node program that
 * reports its own pid and its child's.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

/** Whether a process is running (a zombie waiting to be reaped is not). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !(existsSync(stat) && /\) Z /.test(readFileSync(stat, 'utf8')));
}

/** Whether process `pid` has `file` open (Linux: its /proc/PID/fd links); a blocking open() still waiting does not count. */
function holdsOpen(pid: number, file: string): boolean {
  const target = realpathSync(file);
  const fds = `/proc/${pid}/fd`;
  try {
    return readdirSync(fds).some((fd) => {
      try {
        return readlinkSync(`${fds}/${fd}`) === target;
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false; // exited
  }
}

/** Waits (bounded) until process `pid` holds `file` open; throws if it does not in time. */
export async function untilHeldOpen(pid: number, file: string, timeoutMs = 15_000): Promise<void> {
  for (let waited = 0; !holdsOpen(pid, file); waited += 50) {
    if (waited > timeoutMs) throw new Error(`process ${pid} did not open ${file} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits (bounded) until none of the processes runs; returns those still running. */
export async function stillRunning(pids: number[], timeoutMs = 5_000): Promise<number[]> {
  for (let waited = 0; waited < timeoutMs && pids.some(running); waited += 50) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(running);
}

/**
 * Arguments for `node` to run a program that starts a child, writes both pids
 * to `pidFile` (JSON, whole once it exists) and lives `lifeMs`; with
 * `ignoreSigterm`, both ignore SIGTERM.
 */
export function parentAndChild(pidFile: string, { ignoreSigterm = false, lifeMs = 20_000 } = {}): string[] {
  const ignore = ignoreSigterm ? `process.on('SIGTERM', () => {});` : '';
  const child = `${ignore} setTimeout(() => {}, 60000)`;
  return ['-e', `
    const { spawn } = require('node:child_process');
    ${ignore}
    const child = spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'ignore' });
    // Written aside and renamed into place: a reader that sees the file sees it whole.
    require('node:fs').writeFileSync(${JSON.stringify(pidFile + '.tmp')}, JSON.stringify([process.pid, child.pid]));
    require('node:fs').renameSync(${JSON.stringify(pidFile + '.tmp')}, ${JSON.stringify(pidFile)});
    setTimeout(() => {}, ${lifeMs});`];
}
