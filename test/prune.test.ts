/**
 * Pruning old sessions (`pruneSessions`, `ooda prune`): every row of the
 * sessions beyond the newest N goes, in every table; the kept sessions still
 * replay identically and resume; the session `resume` continues is never
 * deleted; a dry run changes nothing; --vacuum shrinks the file; bad flags and
 * a locked store are clear errors.
 */
import test from 'ava';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneSessions } from '../sinks/sessionPruning.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { SCHEMA_VERSION } from '../sinks/storeSchema.js';
import { tablesOf } from '../sinks/storeVersion.js';
import { AgentConfig } from '../streams/config.js';
import { replaySession } from '../streams/replay.js';
import type { Stimulus } from '../streams/signals.js';
import { runCli } from './helpers/cli.js';
import { holdWriteLock } from './helpers/lock.js';
import { recordSession } from './helpers/recordSession.js';

/** Every table with rows of a session: all but `sessions` (read from the schema, so a table added later is checked too). */
const TABLES = tablesOf(SCHEMA_VERSION).filter((table) => table !== 'sessions');
const stimuli = (n: number): Stimulus[] => [
  ...Array.from({ length: 20 }, (_, i) => ({ source: 'test', value: { type: 'fact', subject: `planet ${n}`, predicate: 'has moon', object: `moon ${i}` } })),
  { source: 'test', value: { type: 'goal', description: `Find moons of planet ${n}`, criteria: 'zzqx', priority: 100 } },
  { source: 'test', value: { type: 'goal', description: 'Read the file notes.txt', criteria: 'zzqx', priority: 200 } },
];

/** A store with sessions s1..s4, oldest first, each with facts, two goals (one reads a file: an effect) and 30 cycles. */
async function fourSessions(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-prune-'));
  writeFileSync(join(dir, 'notes.txt'), 'Mars has two moons.\n');
  const config = AgentConfig.parse({ seed: 3, heartbeatMs: 0, maxCycles: 30, tools: { workspace: dir } });
  const db = join(dir, 'ooda.db');
  for (let n = 1; n <= 4; n++) await recordSession(db, `s${n}`, config, stimuli(n));
  return db;
}

async function rowsBySession(db: string): Promise<Record<string, string[]>> {
  const store = await SqliteStore.open(db, { access: 'read' });
  try {
    const rows: Record<string, string[]> = {};
    for (const table of TABLES) rows[table] = (await store.all<{ session: string }>(`SELECT DISTINCT session FROM ${table} ORDER BY session`)).map((r) => r.session);
    rows.sessions = (await store.sessions()).map((s) => s.id);
    return rows;
  } finally {
    await store.close();
  }
}

test('the sessions beyond the newest N lose every row in every table; the kept ones still replay identically', async (t) => {
  const db = await fourSessions();
  const before = await rowsBySession(db);
  for (const table of TABLES.filter((name) => name !== 'episodes')) t.deepEqual(before[table], ['s1', 's2', 's3', 's4'], `${table} has rows of every session to begin with`);
  const store = await SqliteStore.open(db, { access: 'existing' });
  const pruned = await pruneSessions(store, { keep: 2 });
  t.deepEqual(pruned.map((s) => s.id), ['s1', 's2']);
  t.true(pruned.every((s) => s.status === 'ended' && s.events > 0 && s.signals > 0 && s.snapshots > 0));
  t.is(await store.integrityCheck(), 'ok');
  await store.close();
  const after = await rowsBySession(db);
  for (const [table, sessions] of Object.entries(after)) t.true(sessions.every((id) => id === 's3' || id === 's4'), `${table}: ${sessions.join(', ')}`);
  t.deepEqual(after.sessions, ['s3', 's4']);
  const reader = await SqliteStore.open(db, { access: 'read' });
  for (const id of ['s3', 's4']) t.like(await replaySession(reader, id), { identical: true, session: id });
  await reader.close();
});

test('a dry run deletes nothing; the session resume continues is kept even beyond N; keep must be at least 1', async (t) => {
  const db = await fourSessions();
  const store = await SqliteStore.open(db, { access: 'existing' });
  t.deepEqual((await pruneSessions(store, { keep: 1, dryRun: true })).map((s) => s.id), ['s1', 's2', 's3']);
  t.deepEqual((await store.sessions()).map((s) => s.id), ['s1', 's2', 's3', 's4']);
  // A newer session with no snapshot (its start snapshot could not be written): resume would continue s4, so s4 stays.
  await store.run(`INSERT INTO sessions (id, started_at, status, first_seq, start_cycle, config) VALUES ('s5', 0, 'crashed', 1, 0, '{}')`);
  t.deepEqual((await pruneSessions(store, { keep: 1 })).map((s) => s.id), ['s1', 's2', 's3']);
  t.deepEqual((await store.sessions()).map((s) => s.id), ['s4', 's5']);
  await t.throwsAsync(pruneSessions(store, { keep: 0 }), { message: 'pruneSessions keep: expected a whole number of sessions ≥ 1, got 0' });
  await store.close();
});

test('ooda prune deletes, says what it deleted and compacts with --vacuum; resume continues the kept session', async (t) => {
  const db = await fourSessions();
  const size = statSync(db).size;
  const s1 = await sessionCounts(db, 's1');
  const dry = await runCli(['prune', '--db', db, '--keep', '3', '--dry-run']);
  t.is(dry.code, 0, dry.stderr);
  t.is(dry.stderr, `ooda: would delete session s1 (ended: ${s1.events} events, ${s1.signals} signals, 2 snapshots)\nooda: ${db}: would delete 1 session(s), keeping the newest 3\n`);
  t.is(statSync(db).size, size);
  const done = await runCli(['prune', '--db', db, '--keep', '1', '--vacuum']);
  t.is(done.code, 0, done.stderr);
  t.regex(done.stderr, /deleted session s1 .*\n.*deleted session s2 .*\n.*deleted session s3 .*\n.*: deleted 3 session\(s\), keeping the newest 1; compacted\n$/);
  t.true(statSync(db).size < size, `${statSync(db).size} < ${size}`);
  const resumed = await runCli(['resume', '--db', db, '--max-cycles', '3', '--heartbeat', '0']);
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stderr, /holds session s4: resuming it at cycle \d+/);
});

test('ooda prune: --keep is required and at least 1; a store another process writes is a clear error, and nothing is deleted', async (t) => {
  const db = await fourSessions();
  t.like(await runCli(['prune', '--db', db]), { code: 2, stderr: 'ooda: --keep N is required: how many of the newest sessions to keep\n' });
  t.like(await runCli(['prune', '--db', db, '--keep', '0']), { code: 2, stderr: 'ooda: --keep: must be at least 1, got 0\n' });
  const locker = await holdWriteLock(db);
  try {
    const busy = await runCli(['prune', '--db', db, '--keep', '1']);
    t.is(busy.code, 1, busy.stderr);
    t.regex(busy.stderr, /ooda: store: .* is locked by another process/);
  } finally {
    locker.kill();
  }
  t.deepEqual((await rowsBySession(db)).sessions, ['s1', 's2', 's3', 's4']);
});

async function sessionCounts(db: string, session: string): Promise<{ events: number; signals: number }> {
  const store = await SqliteStore.open(db, { access: 'read' });
  try {
    const row = (await store.sessions()).find((s) => s.id === session)!;
    return { events: row.events, signals: row.signals };
  } finally {
    await store.close();
  }
}
