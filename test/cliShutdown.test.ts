/**
 * An exit that cannot finish writing the store says so: a second SIGINT, and
 * a store that cannot be written at the end, each name the store and the
 * session left running instead of dropping the queued rows silently. Writes
 * are made to fail by another process holding SQLite's write lock on the
 * store (the run's writes then wait out their 2 s busy timeout and fail).
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, startCli, until } from './helpers/cli.js';
import { holdWriteLock } from './helpers/lock.js';

const NEVER_DONE = { OODA_STALL_THRESHOLD: '1000000' };

/** Starts an endless run on a new store and waits until it has stored its session, then locks the store against its writes. */
async function lockedRun(session: string) {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-shutdown-')), 't.db');
  const child = startCli(['run', '--db', db, '--session', session, '--no-stdin', '--pace', '2', '--max-cycles', '1000000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], NEVER_DONE);
  const result = finished(child);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  await until(() => stdout, /"kind":"decision"/);
  const locker = await holdWriteLock(db);
  return { db, child, result, locker };
}

function sessionStatus(db: string, session: string): unknown {
  const file = new Database(db, { readonly: true });
  try {
    return (file.prepare('SELECT status FROM sessions WHERE id = ?').get(session) as { status: string } | undefined)?.status;
  } finally {
    file.close();
  }
}

test('a second SIGINT exits at once and says the queued rows are not written and the session is left running', async (t) => {
  const { db, child, result, locker } = await lockedRun('twice');
  try {
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const { code, stderr } = await result;
    t.is(code, 130, stderr);
    t.regex(stderr, /ooda: SIGINT received: stopping .*a second SIGINT exits at once without flushing\)\n/);
    t.true(
      stderr.endsWith(`ooda: second SIGINT: exiting without flushing: the rows still queued for ${db} and the exit snapshot are not written; session twice is left running: ooda resume re-applies the signals it recorded\n`),
      stderr,
    );
  } finally {
    locker.kill();
  }
  t.is(sessionStatus(db, 'twice'), 'running');
});

test('a store that cannot be written at the end: exit 1, the cause, then that the queued rows were not written and the session is left running', async (t) => {
  const { db, child, result, locker } = await lockedRun('unwritten');
  try {
    child.kill('SIGTERM');
    const { code, stderr } = await result;
    t.is(code, 1, stderr);
    const lines = stderr.trimEnd().split('\n');
    t.regex(lines.at(-2)!, /^ooda: store: .* is locked by another process/);
    t.is(lines.at(-1), `ooda: the rows still queued were not written to ${db}; session unwritten is left running: ooda resume re-applies the signals it recorded`);
  } finally {
    locker.kill();
  }
  t.is(sessionStatus(db, 'unwritten'), 'running');
});
