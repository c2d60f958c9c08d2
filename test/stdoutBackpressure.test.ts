/**
 * A reader of `ooda run`'s stdout that stops reading holds the run, as a
 * store that falls behind does: once stdout holds 8 MiB not yet written,
 * stdin is no longer read (so memory stays bounded) and stderr says why;
 * when the reader reads again, every line accepted is there. The store does
 * not wait for that reader: a run stopped meanwhile ends its session in it.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, runCli, startCli, until } from './helpers/cli.js';

const LINES = 60_000;

function fact(i: number): string {
  return `${JSON.stringify({ type: 'fact', subject: `star${i}`, predicate: 'has planet', object: `planet${i}` })}\n`;
}

test('run: stdout that is not read holds stdin instead of buffering every event; reading it again brings every one', async (t) => {
  const child = startCli(['run', '--no-db', '--heartbeat', '0', '--max-cycles', '10']);
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.pause();
  // Write every line as the pipe takes it; `written` turns true once the child has taken them all.
  let written = false;
  let i = 0;
  const write = (): void => {
    while (i < LINES) if (!child.stdin.write(fact(i++))) return void child.stdin.once('drain', write);
    child.stdin.end(() => (written = true));
  };
  write();

  await until(() => (written ? 'all input taken' : stderr), /stdout is not being read|all input taken/, 20_000);
  t.false(written, 'the child read all its input while nothing read its stdout');
  t.regex(stderr, /^ooda: stdout is not being read as fast as events come: cycles, stdin and heartbeats are held while it drains \(said once\)$/m);
  // It stays held while nobody reads.
  await new Promise((r) => setTimeout(r, 500));
  t.false(written);

  const result = finished(child, 60_000);
  child.stdout.resume();
  const { code, stdout } = await result;
  t.is(code, 0, stderr);
  t.true(written);
  const perceived = events(stdout).filter((e) => e.kind === 'perceived');
  t.is(perceived.length, LINES);
  t.is(perceived.at(-1)!.line, LINES);
});

test('run --db: SIGTERM while stdout is not read ends the session in the store without waiting for the reader; a second SIGTERM says so', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-held-')), 'h.db');
  const child = startCli(['run', '--db', db, '--heartbeat', '0', '--max-cycles', '10']);
  t.teardown(() => child.kill('SIGKILL'));
  const result = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.pause();
  child.stdin.on('error', () => undefined);
  let i = 0;
  const write = (): void => {
    while (i < LINES) if (!child.stdin.write(fact(i++))) return void child.stdin.once('drain', write);
    child.stdin.end();
  };
  write();
  await until(() => stderr, /stdout is not being read/, 20_000);
  child.kill('SIGTERM');

  // The store has the session ended, with its exit snapshot, while nothing has read stdout.
  let session: { status: string; reason: string; snapshots: number } | undefined;
  for (let waited = 0; session?.status !== 'ended'; waited += 100) {
    if (waited > 15_000) return void t.fail(`the session is still ${session?.status} in the store: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
    const listed = await runCli(['sessions', '--db', db, '--json']);
    if (listed.code === 0) session = JSON.parse(listed.stdout.trim().split('\n')[0]!) as typeof session;
  }
  t.like(session, { status: 'ended', reason: 'SIGTERM', snapshots: 2 });
  t.is(child.exitCode, null, 'it still waits for the reader of stdout');

  child.kill('SIGTERM');
  t.is(await result, 143);
  t.regex(stderr, /second SIGTERM: exiting at once: session \S+ is written to \S+ and ended there; only lines stdout's reader had not taken are lost/);
});
