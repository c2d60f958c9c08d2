/**
 * A store whose writer was killed (`kill -9`) keeps what it committed in its
 * `-wal` file. The query commands read it even when the reader may not write
 * the folder and the `-shm` file is gone, without changing a file; a log the
 * reader may not read is one clear line saying what its owner can do. As
 * root, the readers run as an unprivileged user (root ignores file modes).
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, OODA, startCli, until, type CliResult } from './helpers/cli.js';
import { storedEventCount } from './helpers/storedEvents.js';

const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

/** Runs a query command as a user who may not write the store's folder. */
function readAs(dir: string, args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [OODA, ...args], { ...asUser, cwd: dir, stdio: 'pipe' });
  return finished(child as Parameters<typeof finished>[0]);
}

/** A store in a folder nobody but root may write, its writer killed mid-run and its `-shm` file deleted; what the writer printed. */
async function crashedStore(): Promise<{ dir: string; db: string; printed: Record<string, unknown>[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-crashed-'));
  const db = join(dir, 'crashed.db');
  const child = startCli(['run', '--db', db, '--session', 'c1', '--no-stdin', '--pace', '2', '--max-cycles', '1000000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], {
    OODA_STALL_THRESHOLD: '1000000',
  });
  const result = finished(child);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  await until(() => storedEventCount(db), /^[1-9]\d{2,}$/);
  child.kill('SIGKILL');
  await result;
  rmSync(`${db}-shm`);
  chmodSync(dir, 0o555);
  return { dir, db, printed: events(stdout.slice(0, stdout.lastIndexOf('\n') + 1)) };
}

test('the query commands read a crashed store without its -shm in a folder they may not write, the log included, and change nothing', async (t) => {
  const { dir, db, printed } = await crashedStore();
  const files = readdirSync(dir).sort();
  const log = readFileSync(`${db}-wal`);
  t.true(log.length > 0, 'the committed rows are in the -wal file');

  const listed = await readAs(dir, ['sessions', '--db', db, '--json']);
  t.is(listed.code, 0, listed.stderr);
  const [session] = events(listed.stdout);
  t.like(session, { id: 'c1', status: 'running' });
  const stored = session!.events as number;
  t.true(stored > 0);
  const read = await readAs(dir, ['events', '--db', db]);
  t.is(read.code, 0, read.stderr);
  t.deepEqual(events(read.stdout), printed.slice(0, stored), 'every committed event, as printed');
  const replayed = await readAs(dir, ['replay', '--db', db]);
  t.is(replayed.code, 0, replayed.stdout + replayed.stderr);
  t.is(replayed.stdout, `identical: session c1, ${stored} event(s)\n`);
  const recalled = await readAs(dir, ['recall', '--db', db, '--query', 'qzx']);
  t.is(recalled.code, 0, recalled.stderr);

  t.deepEqual(readdirSync(dir).sort(), files, 'no file was created or removed');
  t.true(readFileSync(`${db}-wal`).equals(log), 'the log is unchanged');
});

test('a crashed store whose -wal file the reader may not read is one line naming it and what the owner can do', async (t) => {
  const { dir, db } = await crashedStore();
  chmodSync(`${db}-wal`, 0o000);
  const result = await readAs(dir, ['sessions', '--db', db]);
  t.is(result.code, 1, result.stderr);
  t.is(
    result.stderr,
    `ooda: store: open: cannot read ${db}: its writer did not stop cleanly and left a write-ahead log, ${db}-wal, that this user may not read: let the store's owner fold the log into the file (sqlite3 ${db} 'PRAGMA wal_checkpoint(TRUNCATE)'), or make ${db}-wal readable\n`,
  );
});

test('a copy of a crashed store made without its -wal file is refused saying to copy the -wal with it, and reads once it is', async (t) => {
  const { db } = await crashedStore();
  const folder = mkdtempSync(join(tmpdir(), 'ooda-copied-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const copy = join(folder, 'copy.db');
  copyFileSync(db, copy);
  const refused = await finished(startCli(['sessions', '--db', copy]));
  t.is(refused.code, 1, refused.stderr);
  t.is(
    refused.stderr,
    `ooda: store: open: ${copy} is not an ooda-rx store (it has no schema): pass another --db; or, if it is a copy of a store's file, copy the store's -wal file with it, as ${copy}-wal: the file is in WAL mode, and what a writer commits stays in its -wal until a checkpoint\n`,
  );
  copyFileSync(`${db}-wal`, `${copy}-wal`);
  const listed = await finished(startCli(['sessions', '--db', copy, '--json']));
  t.is(listed.code, 0, listed.stderr);
  t.like(events(listed.stdout)[0], { id: 'c1', status: 'running' });
});
