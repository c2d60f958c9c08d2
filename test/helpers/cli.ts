/**
 * Runs the built CLI (`dist/bin/ooda.js`) as a user would: real process,
 * real pipes. `npm test` builds first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const OODA = fileURLToPath(new URL('../../dist/bin/ooda.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the CLI in `cwd` (default: a fresh temporary folder, so its default ./ooda.db is its own). */
export function startCli(args: string[], env: Record<string, string> = {}, cwd = mkdtempSync(join(tmpdir(), 'ooda-cli-'))): ChildProcessWithoutNullStreams {
  if (!existsSync(OODA)) throw new Error(`${OODA} is missing: run npm run build (npm test does)`);
  return spawn(process.execPath, [OODA, ...args], { env: { ...process.env, ...env }, stdio: 'pipe', cwd });
}

/** Collects a started CLI's output until it exits (bounded by `timeoutMs`). */
export function finished(child: ChildProcessWithoutNullStreams, timeoutMs = 30_000): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Waits (bounded) until the text collected from a stream matches. */
export async function until(read: () => string, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  for (let waited = 0; !pattern.test(read()); waited += 20) {
    if (waited > timeoutMs) throw new Error(`timed out waiting for ${pattern}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs the CLI with `input` on stdin and waits for it to exit. */
export function runCli(args: string[], input = '', env: Record<string, string> = {}): Promise<CliResult> {
  const child = startCli(args, env);
  const result = finished(child);
  child.stdin.end(input);
  return result;
}

export function events(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
