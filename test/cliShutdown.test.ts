/**
 * An exit that cannot finish writing the store says so: a second SIGINT, and
 * a store that cannot be written at the end, each say how many queued rows
 * were not written to the store and that the session is left running,
 * instead of dropping them silently. Writes are made to fail by another
 * process holding SQLite's write lock on the store (the run's writes then
 * wait out their 2 s busy timeout and fail).
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, startCli, until } from './helpers/cli.js';
import { holdWriteLock } from './helpers/lock.js';

const NEVER_DONE = { OODA_STALL_THRESHOLD: '1000000' };

/**
 * Starts an endless run on a new store and waits until it has stored its
 * session, then locks the store against its writes and lets the run print
 * another 1,200 events, which stay queued.
 */
async function lockedRun(session: string) {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-shutdown-')), 't.db');
  const child = startCli(['run', '--db', db, '--session', session, '--no-stdin', '--pace', '2', '--max-cycles', '1000000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], NEVER_DONE);
  const result = finished(child);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  await until(() => stdout, /"kind":"decision"/);
  const locker = await holdWriteLock(db);
  const lines = (): number => stdout.split('\n').length;
  const locked = lines();
  await until(() => String(lines() - locked >= 1200), /true/);
  return { db, child, result, locker, printed: () => events(stdout.slice(0, stdout.lastIndexOf('\n') + 1)) };
}

function query<T>(db: string, sql: string, ...params: unknown[]): T {
  const file = new Database(db, { readonly: true });
  try {
    return file.prepare(sql).get(...params) as T;
  } finally {
    file.close();
  }
}

const sessionStatus = (db: string, session: string): unknown => query<{ status: string } | undefined>(db, 'SELECT status FROM sessions WHERE id = ?', session)?.status;

/** The rows the printed events needed that the store lacks: the events and, for each action among them, its provenance row. */
function unstoredRows(db: string, printed: Record<string, unknown>[]): number {
  const { stored } = query<{ stored: number }>(db, 'SELECT coalesce(max(seq), 0) AS stored FROM events');
  const missing = printed.filter((e) => (e.seq as number) > stored);
  return missing.length + missing.filter((e) => e.kind === 'action').length;
}

/** The count a line gives as `1,234 row(s)`: the test queues over a thousand, so it has a thousands separator. */
function rowCount(line: string): number {
  const count = /\b(\d{1,3}(?:,\d{3})+) row\(s\)/.exec(line)?.[1];
  return count === undefined ? NaN : Number(count.replace(/,/g, ''));
}

test('a second SIGINT exits at once and says how many queued rows are not written and that the session is left running', async (t) => {
  const { db, child, result, locker, printed } = await lockedRun('twice');
  let last = '';
  try {
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const { code, stderr } = await result;
    t.is(code, 130, stderr);
    t.regex(stderr, /ooda: SIGINT received: stopping .*a second SIGINT exits at once without flushing\)\n/);
    last = stderr.trimEnd().split('\n').at(-1)!;
    t.regex(last, /^ooda: second SIGINT: exiting without flushing: \d[\d,]* row\(s\) still queued for /);
    t.true(
      last.endsWith(` still queued for ${db} are not written, nor is the exit snapshot; session twice is left running: ooda resume re-applies the signals it recorded`),
      last,
    );
  } finally {
    locker.kill();
  }
  t.is(sessionStatus(db, 'twice'), 'running');
  t.true(rowCount(last) >= unstoredRows(db, printed()), `${last} (${unstoredRows(db, printed())} unstored)`);
});

test('a store that cannot be written at the end: exit 1, the cause, then how many queued rows were not written and that the session is left running', async (t) => {
  const { db, child, result, locker, printed } = await lockedRun('unwritten');
  let lines: string[] = [];
  try {
    child.kill('SIGTERM');
    const { code, stderr } = await result;
    t.is(code, 1, stderr);
    lines = stderr.trimEnd().split('\n');
    t.regex(lines.at(-2)!, /^ooda: store: .* is locked by another process/);
    t.regex(lines.at(-1)!, /^ooda: \d[\d,]* row\(s\) not written to /);
    t.true(lines.at(-1)!.endsWith(` row(s) not written to ${db}; session unwritten is left running: ooda resume re-applies the signals it recorded`), lines.at(-1));
  } finally {
    locker.kill();
  }
  t.is(sessionStatus(db, 'unwritten'), 'running');
  // Besides the printed events: the exit snapshot and the session's end.
  t.true(rowCount(lines.at(-1)!) >= unstoredRows(db, printed()) + 2, `${lines.at(-1)} (${unstoredRows(db, printed())} unstored)`);
});
