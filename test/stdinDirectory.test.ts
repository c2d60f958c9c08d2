/**
 * A directory on stdin (`ooda run < folder`) is a usage error: Node reads it
 * as an empty stream, so the run used to start and end as if no input had
 * been given, without a word.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OODA } from './helpers/cli.js';

function withStdin(fd: number, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [OODA, ...args], { stdio: [fd, 'pipe', 'pipe'], cwd: mkdtempSync(join(tmpdir(), 'ooda-stdin-dir-')) });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('run and resume with a directory on stdin exit 2 naming stdin; --no-stdin runs', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'ooda-folder-'));
  for (const args of [['run', '--no-db'], ['run'], ['resume']]) {
    const { code, stdout, stderr } = await withStdin(openSync(folder, 'r'), [...args, '--heartbeat', '0']);
    t.is(code, 2, stderr);
    t.is(stdout, '');
    t.is(stderr, 'ooda: stdin is a directory, not NDJSON lines: redirect a file or a pipe, or pass --no-stdin\n');
  }
  const skipped = await withStdin(openSync(folder, 'r'), ['run', '--no-db', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1']);
  t.is(skipped.code, 0, skipped.stderr);
});
