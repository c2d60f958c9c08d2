import test from 'ava';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, runCli, startCli } from './helpers/cli.js';
import { holdWriteLock } from './helpers/lock.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { StoreError } from '../sinks/storeError.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../sinks/storeSchema.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'ooda-writer-'));

test('one writer per store: while a run writes it, a second run or consolidate is refused, readers still read it, and it is free again once the run ends', async (t) => {
  const db = join(tempDir(), 'live.db');
  // A run whose stdin stays open keeps writing the store until stdin ends.
  const writer = startCli(['run', '--db', db, '--heartbeat', '0', '--session', 'first']);
  const done = finished(writer);
  writer.stdin.write('{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}\n');
  let listed = '';
  for (let tries = 0; tries < 100 && !/"status":"running"/.test(listed); tries++) {
    listed = (await runCli(['sessions', '--db', db, '--json'])).stdout;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.deepEqual(events(listed).map((s) => [s.id, s.status]), [['first', 'running']], 'a reader lists the live session');

  for (const args of [['run', '--db', db, '--no-stdin', '--max-cycles', '1', '--session', 'second'], ['consolidate', '--db', db]]) {
    const refused = await runCli(args);
    t.is(refused.code, 1, `${args[0]}: ${refused.stderr}`);
    t.regex(refused.stderr, /ooda: store: lock: .*live\.db is locked by another process .*is another ooda running on it\?/, args[0]);
    t.notRegex(refused.stderr, /resuming|re-applied/, `${args[0]} touched the live session`);
  }

  writer.stdin.end();
  const ended = await done;
  t.is(ended.code, 0, ended.stderr);
  const after = events((await runCli(['sessions', '--db', db, '--json'])).stdout);
  t.deepEqual(after.map((s) => [s.id, s.status]), [['first', 'ended']], 'the refused commands left nothing behind');
  const next = await runCli(['run', '--db', db, '--no-stdin', '--max-cycles', '1', '--session', 'second']);
  t.is(next.code, 0, next.stderr);
});

test('a --session id the store already holds is refused before the run starts, and the store keeps one session of that id', async (t) => {
  const db = join(tempDir(), 'ids.db');
  t.is((await runCli(['run', '--db', db, '--no-stdin', '--max-cycles', '2', '--session', 'mine', '--goal', 'x'])).code, 0);
  for (const extra of [[], ['--fresh']]) {
    const again = await runCli(['run', '--db', db, '--no-stdin', '--max-cycles', '2', '--session', 'mine', '--goal', 'y', ...extra]);
    t.is(again.code, 1, again.stderr);
    t.regex(again.stderr, /ooda: store: .*ids\.db already holds a session mine: pass another --session, or none for a new id/);
    t.is(again.stdout, '', 'no event was emitted');
  }
  const sessions = events((await runCli(['sessions', '--db', db, '--json'])).stdout);
  t.deepEqual(sessions.map((s) => [s.id, s.status]), [['mine', 'ended']]);
});

test('commands that continue a store refuse an empty file and leave it empty', async (t) => {
  const dir = tempDir();
  const empty = join(dir, 'empty.db');
  writeFileSync(empty, '');
  for (const command of ['resume', 'consolidate']) {
    const result = await runCli([command, '--db', empty]);
    t.is(result.code, 1, result.stderr);
    t.regex(result.stderr, /empty\.db is not an ooda-rx store \(it has no schema\)/, command);
    t.is(statSync(empty).size, 0, `${command} wrote into the file`);
    t.false(existsSync(`${empty}-lock`), `${command} left a lock file beside it`);
  }
  const recall = await runCli(['recall', '--db', empty, '--query', 'x']);
  t.is(recall.code, 1, recall.stderr);
});

test('the lock is the real file\'s: a writer through a symlink to the store, to its folder or to a store not created yet, waits for the writer of the real path', async (t) => {
  const dir = tempDir();
  const real = join(dir, 'real.db');
  await (await SqliteStore.open(real)).close();
  const links = tempDir();
  symlinkSync(real, join(links, 'link.db'));
  symlinkSync(dir, join(links, 'folder'));
  // A dangling symlink: SQLite creates its target, so its writer must wait for the target's.
  symlinkSync(join(dir, 'later.db'), join(links, 'later.db'));
  // Writers of the real paths, in other processes (SQLite's locks do not conflict within one).
  const writers = await Promise.all([holdWriteLock(`${real}-lock`), holdWriteLock(join(dir, 'new.db-lock')), holdWriteLock(join(dir, 'later.db-lock'))]);
  try {
    for (const file of [join(links, 'link.db'), join(links, 'folder', 'real.db'), join(links, 'folder', 'new.db'), join(links, 'later.db')]) {
      const error = await t.throwsAsync(SqliteStore.open(file, { busyTimeoutMs: 50 }), { instanceOf: StoreError }, file);
      t.is(error!.code, 'SQLITE_BUSY', file);
      t.true(error!.message.startsWith(`store: lock: ${file} is locked by another process`), error!.message);
    }
    t.false(existsSync(join(dir, 'new.db')), 'the refused writer created nothing');
    t.false(existsSync(join(dir, 'later.db')), 'the refused writer created nothing');
    t.false(existsSync(join(links, 'later.db-lock')), 'no lock beside the link');
  } finally {
    for (const writer of writers) writer.kill();
  }
});

test('a writer waiting for the lock takes it when the other writer lets go within its timeout, and stops waiting at once when its signal aborts', async (t) => {
  const dir = tempDir();
  const waited = join(dir, 'waited.db');
  const holder = await holdWriteLock(`${waited}-lock`);
  const opening = SqliteStore.open(waited, { busyTimeoutMs: 20_000 });
  setTimeout(() => holder.kill(), 400);
  await (await opening).close();
  t.pass('the lock was taken once its holder let go');

  const aborted = join(dir, 'aborted.db');
  const other = await holdWriteLock(`${aborted}-lock`);
  try {
    const stop = new AbortController();
    const waiting = SqliteStore.open(aborted, { busyTimeoutMs: 60_000, signal: stop.signal });
    setTimeout(() => stop.abort('SIGINT'), 300);
    // Bounded far below the 60 s timeout: without the signal the wait would outlast this.
    const outcome = await Promise.race([waiting.then(() => 'opened', (error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000))]);
    t.true(outcome instanceof StoreError, String(outcome));
    t.is((outcome as StoreError).code, 'SQLITE_BUSY');
    t.true((outcome as StoreError).message.startsWith(`store: lock: ${aborted} is locked by another process`), (outcome as StoreError).message);
    t.false(existsSync(aborted), 'the writer that stopped waiting created nothing');
  } finally {
    other.kill();
  }
});

test('a reader that opens a store while its writer is creating it (the file still empty, the lock held) waits for the schema instead of calling it no store; with no writer, an empty file is refused at once', async (t) => {
  const dir = tempDir();
  const file = join(dir, 'new.db');
  writeFileSync(file, '');
  const writer = await holdWriteLock(`${file}-lock`);
  t.teardown(() => void writer.kill());
  const reading = SqliteStore.open(file, { access: 'read' });
  await new Promise((r) => setTimeout(r, 100));
  // What the writer does under its lock as it creates the store.
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(MIGRATIONS.join('\n'));
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  db.close();
  const store = await reading;
  t.deepEqual(await store.sessions(), []);
  await store.close();
  const lone = join(dir, 'lone.db');
  writeFileSync(lone, '');
  await t.throwsAsync(SqliteStore.open(lone, { access: 'read' }), { instanceOf: StoreError, message: /lone\.db is not an ooda-rx store \(it has no schema\)/ });
});
