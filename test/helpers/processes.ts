/**
 * Helpers for tests of programs the agent starts: whether a process still
 * runs, and a node program that reports its own pid and its child's.
 */
import { existsSync, readFileSync } from 'node:fs';

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
