/**
 * A store on a full disk. SQLite reports a `-shm` file it cannot grow there
 * as an I/O error, not as a full disk, so a reader (which needs that file to
 * read a store in WAL mode) failed and every command said "check the disk".
 * Needs a small tmpfs, which only root can mount (CI runs as root): skipped
 * for another user.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualTimeScheduler } from 'rxjs';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { toSqlite } from '../sinks/toSqlite.js';
import { events, runCli } from './helpers/cli.js';

/** Mounts a 1 MiB tmpfs at a new folder (root only). */
function smallDisk(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
  return dir;
}

function unmount(dir: string): void {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** Root can mount a tmpfs (as CI, which runs as root, does); another user cannot, and skips the test. */
const root = process.getuid?.() === 0;

/** Writes a file of up to `bytes` (default: until the disk holding it is full; bounded: the disk is 1 MiB), as far as there is room. */
function fill(file: string, bytes = 1000 * 16_384): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(16_384);
  try {
    for (let written = 0; written < bytes; written += chunk.length) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

(root ? test : test.skip)('a store on a full disk can still be listed, printed and replayed, and a writer says the disk is full, naming the file', async (t) => {
  const dir = smallDisk();
  t.teardown(() => unmount(dir));
  const db = join(dir, 'a.db');
  const ran = await runCli(['run', '--db', db, '--session', 's1', '--no-stdin', '--goal', 'Find moons of Mars', '--max-cycles', '3']);
  t.is(ran.code, 0, ran.stderr);
  fill(join(dir, 'filler'));

  const listed = await runCli(['sessions', '--db', db, '--json']);
  t.is(listed.code, 0, listed.stderr);
  t.like(events(listed.stdout)[0], { id: 's1', status: 'ended' });
  const printed = await runCli(['events', '--db', db, '--last', '1']);
  t.is(printed.code, 0, printed.stderr);
  t.like(events(printed.stdout)[0], { kind: 'session', state: 'stopped' });
  const replayed = await runCli(['replay', '--db', db]);
  t.is(replayed.code, 0, replayed.stderr);
  t.regex(replayed.stdout, /^identical: session s1, /);
  t.deepEqual(readdirSync(dir).sort(), ['a.db', 'a.db-lock', 'filler'], 'the readers left no -wal or -shm behind');

  const resumed = await runCli(['resume', '--db', db, '--no-stdin', '--max-cycles', '1']);
  t.is(resumed.code, 1);
  t.true(resumed.stderr.includes(`${db}: the disk or the database's size limit is full`), resumed.stderr);
});

/** The small files another program deletes one per window in backlogBehindFullDisk's `churn` (128 KB in all: not room for the backlog). */
const TEMP_FILES = 8;

/**
 * Three rows of 60 KB queued behind a full 1 MiB disk, on virtual time: with
 * `churn`, another program deletes a 16 KB file of its own every window for
 * the first eight (a busy disk's small changes); the sink must back off all
 * the same, and write the backlog in the first window after room for it is
 * freed.
 */
async function backlogBehindFullDisk(t: ExecutionContext, churn: boolean): Promise<void> {
  const dir = smallDisk();
  const store = await SqliteStore.open(join(dir, 'a.db'));
  t.teardown(async () => {
    await store.close().catch(() => undefined);
    unmount(dir);
  });
  // The sink's flush windows on virtual time, stepped one at a time; each write the store starts is awaited (real I/O).
  const scheduler = new VirtualTimeScheduler();
  const attempts: Promise<unknown>[] = [];
  const write = store.write.bind(store);
  store.write = (batch) => {
    const attempt = write(batch);
    attempts.push(attempt.catch(() => undefined));
    return attempt;
  };
  const windows = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      scheduler.maxFrames = scheduler.now() + 50;
      scheduler.flush();
      await Promise.all(attempts);
    }
  };
  const lines: string[] = [];
  const sink = toSqlite(store, { flushMs: 50, scheduler, log: (line) => lines.push(line) });
  const body = 'x'.repeat(60_000);
  sink.insert('signals', { id: 1, session: 's', at: 1, type: 'fact', body });
  await windows(1);
  t.is(sink.committed, 1);
  if (churn) for (let i = 0; i < TEMP_FILES; i++) fill(join(dir, `temp-${i}`), 16_384);
  fill(join(dir, 'filler'));
  for (let id = 2; id <= 4; id++) sink.insert('signals', { id, session: 's', at: id, type: 'fact', body });
  await windows(1);
  t.is(attempts.length, 2);
  t.regex(lines[0]!, /the disk or the database's size limit is full .*3 row\(s\) kept in memory; retrying at least every 1 s, and as soon as the disk has room for them/);

  for (let window = 0; window < 40; window++) {
    if (churn && window < TEMP_FILES) rmSync(join(dir, `temp-${window}`));
    await windows(1);
  }
  const retries = attempts.length - 2;
  t.true(retries >= 2 && retries <= 5, `2 s of full disk: ${retries} retries of the whole backlog (one per window was 40)`);
  t.is(sink.pending, 3, 'nothing dropped');

  rmSync(join(dir, 'filler'));
  const before = attempts.length;
  await windows(1);
  t.is(attempts.length, before + 1, 'retried in the first window after room was freed, not when the backoff ends');
  t.is(sink.pending, 0);
  t.is(sink.committed, 4);
  t.regex(lines.at(-1)!, /writing works again; 3 delayed row\(s\) written/);
  t.deepEqual((await store.signals('s')).map((row) => row.id), [1, 2, 3, 4], 'each row once, in order');
}

(root ? test : test.skip)('a sink on a full disk backs off instead of rewriting its backlog every flush window, and writes it in the first window after room is freed', (t) => backlogBehindFullDisk(t, false));

(root ? test : test.skip)('a sink on a full disk where another program frees a few KB each window still backs off: only room for its backlog brings the retry forward', (t) => backlogBehindFullDisk(t, true));
