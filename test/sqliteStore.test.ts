import test from 'ava';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { VirtualTimeScheduler } from 'rxjs';
import { holdWriteLock } from './helpers/lock.js';
import { SqliteStore, type StoreOptions } from '../sinks/sqliteStore.js';
import { StoreError } from '../sinks/storeError.js';
import { SCHEMA_VERSION } from '../sinks/storeSchema.js';
import { toSqlite, type SqliteSinkOptions } from '../sinks/toSqlite.js';
import { AgentConfig } from '../streams/config.js';
import { eventFromRow } from '../streams/storedState.js';
import { Persistence, type PersistenceOptions } from '../streams/session.js';
import type { AgentEvent } from '../streams/events.js';

const tempDb = (): string => join(mkdtempSync(join(tmpdir(), 'ooda-store-')), 'test.db');

function heartbeatEvent(seq: number): AgentEvent {
  return { kind: 'heartbeat', seq, session: 's1', cycle: 0, at: 1000 + seq, beat: seq };
}

/** Counts the transactions a store commits (the real store, observed). */
function countWrites(store: SqliteStore): { sizes: number[] } {
  const seen = { sizes: [] as number[] };
  const write = store.write.bind(store);
  store.write = (batch) => {
    seen.sizes.push(batch.size);
    return write(batch);
  };
  return seen;
}

test('opening creates the schema at the current version, in WAL mode; reopening keeps it', async (t) => {
  const file = tempDb();
  const store = await SqliteStore.open(file);
  t.is((await store.get<{ journal_mode: string }>('PRAGMA journal_mode'))!.journal_mode, 'wal');
  t.is((await store.get<{ synchronous: number }>('PRAGMA synchronous'))!.synchronous, 1);
  await store.close();
  const again = await SqliteStore.open(file, { synchronous: 'full' });
  t.is((await again.get<{ user_version: number }>('PRAGMA user_version'))!.user_version, SCHEMA_VERSION);
  t.is((await again.get<{ synchronous: number }>('PRAGMA synchronous'))!.synchronous, 2);
  const tables = (await again.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).map((r) => r.name);
  t.deepEqual(tables, ['effects', 'episodes', 'events', 'goals', 'provenance', 'sessions', 'signals', 'snapshots', 'triples']);
  await again.close();
});

test('a file written by a newer schema version is refused, naming both versions', async (t) => {
  const file = tempDb();
  const db = new Database(file);
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  const error = await t.throwsAsync(SqliteStore.open(file), { instanceOf: StoreError });
  t.regex(error!.message, new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this program's ${SCHEMA_VERSION}`));
});

test('a writer (and a reader) refuses another program\'s database (tables but no ooda schema), naming what it holds, before changing anything or leaving a lock file beside it; an empty file becomes a store', async (t) => {
  for (const [sql, named] of [['CREATE TABLE t (x)', 'table t'], ['CREATE TABLE events (x); CREATE INDEX events_x ON events (x)', 'table events, index events_x']] as const) {
    const file = tempDb();
    const db = new Database(file);
    db.exec(sql);
    db.close();
    const error = await t.throwsAsync(SqliteStore.open(file), { instanceOf: StoreError });
    t.is(error!.code, 'SCHEMA');
    t.is(error!.message, `store: open: ${file} is an SQLite database but not an ooda-rx store (it holds ${named}): ooda writes only its own stores or empty files; pass another --db`);
    const read = await t.throwsAsync(SqliteStore.open(file, { access: 'read' }), { instanceOf: StoreError });
    t.is(read!.message, error!.message, 'a reader names what it holds too');
    const after = new Database(file, { readonly: true });
    t.is(after.pragma('journal_mode', { simple: true }), 'delete', 'the journal mode is unchanged');
    t.is(after.pragma('user_version', { simple: true }), 0);
    t.deepEqual(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all(), [{ name: sql.includes('events') ? 'events' : 't' }], 'no table was added');
    after.close();
    t.false(existsSync(`${file}-lock`), 'no lock file was left beside it');
  }
  const empty = tempDb();
  writeFileSync(empty, '');
  const store = await SqliteStore.open(empty);
  t.is((await store.get<{ user_version: number }>('PRAGMA user_version'))!.user_version, SCHEMA_VERSION);
  await store.close();
});

test('a database of another program that numbers its schema with user_version 1 is refused by writers and readers, unchanged and with nothing beside it', async (t) => {
  const file = tempDb();
  const db = new Database(file);
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep me')");
  db.pragma('user_version = 1');
  db.close();
  const before = readFileSync(file);
  for (const access of ['create', 'existing', 'read'] as const) {
    const error = await t.throwsAsync(SqliteStore.open(file, { access }), { instanceOf: StoreError }, access);
    t.is(error!.code, 'SCHEMA', access);
    t.is(
      error!.message,
      `store: open: ${file} is not an ooda-rx store: it has schema version 1 (PRAGMA user_version) but lacks its table(s) sessions, signals, events, snapshots, goals, episodes, triples, provenance: it is damaged or another program's database; pass another --db`,
      access,
    );
  }
  t.true(readFileSync(file).equals(before), 'the file is unchanged (it stays in its journal mode)');
  t.deepEqual(readdirSync(dirname(file)), ['test.db'], 'no -lock, -wal or -shm was left beside it');
});

test('a writer opening the store marks every session still running crashed, with its cycles and end from its last stored event; a reader changes nothing', async (t) => {
  const file = tempDb();
  const store = await SqliteStore.open(file);
  const sink = toSqlite(store);
  const session = (id: string, status: 'running' | 'ended', start_cycle: number) =>
    sink.insert('sessions', { id, started_at: 100 * start_cycle, status, resumed_from: null, first_seq: 1, start_cycle, config: {} });
  session('ended', 'ended', 1);
  session('died-working', 'running', 2);
  session('died-at-once', 'running', 3);
  session('died-last', 'running', 4);
  const beats: [string, number, number][] = [['ended', 1, 150], ['died-working', 6, 250], ['died-working', 7, 260], ['died-last', 9, 480]];
  beats.forEach(([id, cycle, at], i) => sink.next({ kind: 'heartbeat', seq: i + 1, session: id, cycle, at, beat: i }));
  await sink.flushed();
  await store.close();
  const rows = async (opened: SqliteStore) => {
    const found = await opened.all('SELECT id, status, reason, cycles, ended_at FROM sessions ORDER BY rowid');
    await opened.close();
    return found;
  };
  const running = (id: string) => ({ id, status: 'running', reason: null, cycles: null, ended_at: null });
  const asStored = [{ id: 'ended', status: 'ended', reason: null, cycles: null, ended_at: null }, running('died-working'), running('died-at-once'), running('died-last')];
  t.deepEqual(await rows(await SqliteStore.open(file, { access: 'read' })), asStored, 'a reader marks nothing');
  const crashed = (id: string, cycles: number, ended_at: number) => ({ id, status: 'crashed', reason: 'did not stop cleanly', cycles, ended_at });
  t.deepEqual(await rows(await SqliteStore.open(file)), [asStored[0], crashed('died-working', 7, 260), crashed('died-at-once', 3, 300), crashed('died-last', 9, 480)]);
});

test('a file locked by another process gives a clear error after the busy timeout', async (t) => {
  const file = tempDb();
  await (await SqliteStore.open(file)).close();
  const locker = await holdWriteLock(file);
  try {
    const error = await t.throwsAsync(SqliteStore.open(file, { busyTimeoutMs: 50 }), { instanceOf: StoreError });
    t.is(error!.code, 'SQLITE_BUSY');
    t.regex(error!.message, /is locked by another process .*a program holds a write transaction on it/, 'not another ooda: those are kept out by the side file\'s lock');
  } finally {
    locker.kill();
  }
});

test('a file that is not a database gives a clear error', async (t) => {
  const file = tempDb();
  writeFileSync(file, 'this is not sqlite, just some text that is long enough to have a header '.repeat(20));
  const error = await t.throwsAsync(SqliteStore.open(file), { instanceOf: StoreError });
  t.regex(error!.message, /is not an SQLite database/);
});

test('the sink batches: rows wait for the flush timer, then one transaction writes them; a full batch flushes at once', async (t) => {
  const store = await SqliteStore.open(tempDb(), { batchSize: 100 });
  const writes = countWrites(store);
  const scheduler = new VirtualTimeScheduler();
  const sink = toSqlite(store, { batchSize: 100, flushMs: 50, scheduler });
  for (let seq = 1; seq <= 10; seq++) sink.next(heartbeatEvent(seq));
  t.is(sink.pending, 10);
  t.deepEqual(writes.sizes, [], 'nothing is written before the flush window ends');
  scheduler.flush();
  await sink.flushed();
  t.deepEqual(writes.sizes, [10]);
  for (let seq = 11; seq <= 1010; seq++) sink.next(heartbeatEvent(seq));
  t.is(writes.sizes[1], 100, 'the 100th queued row starts a flush at once');
  await sink.flushed();
  t.true(writes.sizes.length <= 5, `rows queued while a transaction runs go together in the next: ${writes.sizes.join(', ')}`);
  const rows = await store.events({});
  t.is(rows.length, 1010);
  t.deepEqual(eventFromRow(rows[41]!), heartbeatEvent(42));
  t.deepEqual(
    rows.map((r) => r.seq),
    Array.from({ length: 1010 }, (_, i) => i + 1),
  );
  await store.close();
});

test('the sink flushes on completion and records each action with the decision that chose it as provenance', async (t) => {
  const store = await SqliteStore.open(tempDb());
  const sink = toSqlite(store, { flushMs: 60_000 });
  const header = { session: 's1', cycle: 1, at: 5 };
  sink.next({ kind: 'decision', seq: 1, ...header, goalId: 'goal-1', tool: 'kg_query', score: 0.85, breakdown: '[score=0.85: …]', input: {}, alternatives: [], reason: 'best' });
  sink.next({ kind: 'action', seq: 2, ...header, goalId: 'goal-1', tool: 'kg_query', status: 'ok', summary: 'found', progress: 'completed', facts: 0, memorySize: 0, episodes: 0 });
  sink.complete();
  await sink.flushed();
  t.is((await store.events({})).length, 2);
  t.deepEqual(await store.all('SELECT seq, goal_id, tool, score, breakdown, status, progress FROM provenance'), [
    { seq: 2, goal_id: 'goal-1', tool: 'kg_query', score: 0.85, breakdown: '[score=0.85: …]', status: 'ok', progress: 'completed' },
  ]);
  await store.close();
});

test('a full store is a reported error, never a silent drop: rows stay queued, onError and stderr hear once, flushed() rejects', async (t) => {
  const store = await SqliteStore.open(tempDb());
  const { page_count: pages } = (await store.get<{ page_count: number }>('PRAGMA page_count'))!;
  await store.run(`PRAGMA max_page_count = ${pages + 2}`);
  const errors: StoreError[] = [];
  const lines: string[] = [];
  const sink = toSqlite(store, { batchSize: 500, flushMs: 5, onError: (e) => errors.push(e), log: (l) => lines.push(l) });
  const big = 'x'.repeat(2000);
  for (let seq = 1; seq <= 200; seq++) sink.next({ kind: 'warning', seq, session: 's1', cycle: 0, at: seq, message: big });
  const error = await t.throwsAsync(sink.flushed(), { instanceOf: StoreError });
  t.is(error!.code, 'SQLITE_FULL');
  t.regex(error!.message, /disk or the database's size limit is full/);
  t.is(errors.length, 1, 'reported once, not once per retry');
  t.regex(lines[0]!, /200 row\(s\) kept in memory; retrying at least every 1 s, and as soon as the disk has room for them/);
  t.is(sink.pending, 200, 'no row was dropped');
  await store.run('PRAGMA max_page_count = 1073741823');
  await sink.flushed();
  t.is((await store.events({})).length, 200);
  t.regex(lines.at(-1)!, /writing works again; 200 delayed row\(s\) written/);
  await store.close();
});

/** A sink on a new store that flushes only when asked or at a full batch, and the values its saturated$ has emitted. */
async function watchedSink(options: SqliteSinkOptions) {
  const store = await SqliteStore.open(tempDb());
  const sink = toSqlite(store, { flushMs: 60_000, ...options });
  const states: boolean[] = [];
  sink.saturated$.subscribe((s) => states.push(s));
  return { store, sink, states };
}

test('the queue is bounded: saturated$ turns true at maxQueued and false once the queue drains below half', async (t) => {
  const { store, sink, states } = await watchedSink({ batchSize: 1000, maxQueued: 300 });
  for (let seq = 1; seq <= 300; seq++) sink.next(heartbeatEvent(seq));
  t.deepEqual(states, [true]);
  await sink.flushed();
  t.deepEqual(states, [true, false]);
  t.is(sink.pending, 0);
  await store.close();
});

test('the row bound counts the rows waiting behind the transaction being written, not that transaction: the agent works on while it is written, up to maxQueued rows ahead', async (t) => {
  const { store, sink, states } = await watchedSink({ batchSize: 100, maxQueued: 300 });
  for (let seq = 1; seq <= 100; seq++) sink.next(heartbeatEvent(seq));
  t.is(sink.pending, 100, 'a batch of 100 is being written');
  for (let seq = 101; seq <= 399; seq++) sink.next(heartbeatEvent(seq));
  t.deepEqual(states, [], '299 rows wait behind the 100 being written: under the bound');
  sink.next(heartbeatEvent(400));
  t.deepEqual(states, [true], 'the 300th row waiting saturates it');
  await sink.flushed();
  t.deepEqual(states, [true, false]);
  t.is((await store.events({})).length, 400);
  await store.close();
});

test('the queue is bounded in bytes too: a few big rows (whole-mind snapshots) saturate it at maxQueuedBytes, and it is released once they are written', async (t) => {
  const { store, sink, states } = await watchedSink({ batchSize: 1000, maxQueued: 50_000, maxQueuedBytes: 1_000_000 });
  const state = { goals: [], memory: 'x'.repeat(300_000) };
  for (let id = 1; id <= 3; id++) sink.insert('snapshots', { id, session: 's', at: id, cycle: 0, signal_id: 0, reason: 'save command', state });
  t.deepEqual(states, [], 'three rows of 300 kB: under both bounds');
  sink.insert('snapshots', { id: 4, session: 's', at: 4, cycle: 0, signal_id: 0, reason: 'save command', state });
  t.deepEqual(states, [true], 'the fourth passes 1 MB with 4 rows queued');
  await sink.flushed();
  t.deepEqual(states, [true, false]);
  t.is((await store.get<{ n: number }>('SELECT count(*) AS n FROM snapshots'))!.n, 4);
  t.throws(() => toSqlite(store, { maxQueuedBytes: 0 }), { message: 'toSqlite maxQueuedBytes: expected a whole number of bytes ≥ 1, got 0' });
  await store.close();
});

test('toSqlite refuses a bad option, naming it: a bound that is not a number would never saturate, so the queue would grow without bound', async (t) => {
  const store = await SqliteStore.open(tempDb());
  t.teardown(() => store.close());
  const refused = (options: Record<string, unknown>, message: string) => t.throws(() => toSqlite(store, options as SqliteSinkOptions), { message });
  refused({ maxQueued: NaN }, 'toSqlite maxQueued: expected a whole number of rows ≥ 1, got NaN');
  refused({ maxQueued: '50000' }, 'toSqlite maxQueued: expected a whole number of rows ≥ 1, got "50000"');
  refused({ batchSize: 0 }, 'toSqlite batchSize: expected a whole number of rows ≥ 1, got 0');
  refused({ batchSize: 2.5 }, 'toSqlite batchSize: expected a whole number of rows ≥ 1, got 2.5');
  refused({ flushMs: 3e9 }, 'toSqlite flushMs: expected a number of ms from 0 to 2147483647, got 3000000000');
  refused({ flushMs: -1 }, 'toSqlite flushMs: expected a number of ms from 0 to 2147483647, got -1');
  refused({ scheduler: {} }, 'toSqlite scheduler: expected an RxJS scheduler (with schedule and now), got an object');
  refused({ onError: 'log' }, 'toSqlite onError: expected a function, got "log"');
  const sink = toSqlite(store, { batchSize: 1, flushMs: 0, maxQueued: 1, scheduler: new VirtualTimeScheduler(), log: () => {} });
  t.is(sink.pending, 0, 'the smallest values are taken');

  const db = tempDb();
  const context = { session: 's1', config: AgentConfig.parse({}), log: () => {} };
  await t.throwsAsync(Persistence.open({ db, fresh: false, maxQueued: NaN }, context), { message: 'toSqlite maxQueued: expected a whole number of rows ≥ 1, got NaN' });
  t.false(existsSync(db), 'Persistence.open checks them before it creates the store');
});

test('SqliteStore.open and Persistence.open refuse a bad option before touching the file: synchronous "FULL" would have run with NORMAL durability, fresh "no" would have started a new mind', async (t) => {
  const db = tempDb();
  const refused = (options: Record<string, unknown>, message: string) => t.throwsAsync(SqliteStore.open(db, options as StoreOptions), { message });
  await refused({ synchronous: 'FULL' }, 'SqliteStore.open synchronous: expected "normal" or "full", got "FULL"');
  await refused({ access: 'write' }, 'SqliteStore.open access: expected "create" or "existing" or "read", got "write"');
  await refused({ busyTimeoutMs: NaN }, 'SqliteStore.open busyTimeoutMs: expected a number of ms from 0 to 2147483647, got NaN');
  await refused({ busyTimeoutMs: '2000' }, 'SqliteStore.open busyTimeoutMs: expected a number of ms from 0 to 2147483647, got "2000"');
  await refused({ batchSize: 0 }, 'SqliteStore.open batchSize: expected a whole number of rows ≥ 1, got 0');
  const context = { session: 's1', config: AgentConfig.parse({}), log: () => {} };
  const persistence = (options: Record<string, unknown>) => Persistence.open(options as unknown as PersistenceOptions, context);
  await t.throwsAsync(persistence({ db, fresh: 'no' }), { message: 'Persistence.open fresh: expected true or false, got "no"' });
  await t.throwsAsync(persistence({ db: 5, fresh: false }), { message: 'Persistence.open db: expected the store\'s file (or ":memory:"), got 5' });
  await t.throwsAsync(persistence({ db, fresh: false, synchronous: 'FULL' }), { message: /^SqliteStore\.open synchronous: / });
  t.false(existsSync(db), 'nothing was created');
  const store = await SqliteStore.open(db, { synchronous: 'full', access: 'create', busyTimeoutMs: 0, batchSize: 1 });
  await store.close();
});

/** Doubles SQLite's decimal-to-double conversion reads 1 ulp off (a JSON number is not always read back exactly). */
const ROUNDED_BY_SQLITE = [5447.215961320519, 0.578038099969093, -3.16692302600749e-15, 0.00004067520247556705];

/** Any text: every code point (quotes, backslashes, control characters, emoji, U+2028) plus lone surrogates. */
const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\u0000\u001f\u2028', '\ud800', '😀é', "'; DROP TABLE events; --"));
const anyBody = fc.dictionary(anyText, fc.jsonValue({ stringUnit: fc.oneof(fc.constant('\udfff'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), { maxKeys: 6 });

test('rows round-trip exactly: each body is the event without its header, as JSON.stringify writes it; fractional times stay exact', async (t) => {
  const store = await SqliteStore.open(tempDb(), { batchSize: 7 });
  let seq = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ body: anyBody, kind: fc.string({ unit: 'grapheme', minLength: 1 }), at: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(...ROUNDED_BY_SQLITE)) }), {
        maxLength: 30,
      }),
      async (drafts) => {
        const sink = toSqlite(store, { batchSize: 10, flushMs: 60_000 });
        const first = seq + 1;
        const events = drafts.map(({ body, kind, at }) => ({ ...body, kind, seq: ++seq, session: 'sé"ss', cycle: seq * 3, at }) as unknown as AgentEvent);
        for (const event of events) sink.next(event);
        sink.complete();
        await sink.flushed();
        const rows = await store.all<{ seq: number; session: string; cycle: number; at: number; kind: string; body: string }>(
          'SELECT * FROM events WHERE seq >= ? ORDER BY seq',
          [first],
        );
        t.deepEqual(
          rows,
          events.map(({ kind, seq, session, cycle, at, ...body }) => ({ seq, session, cycle, at: at === 0 ? 0 : at, kind, body: JSON.stringify(body) })),
        );
      },
    ),
    { numRuns: 40 },
  );
  await store.close();
});

test('a batch whose rows have fractional times sets them exactly with one statement per table, not one per row (a high-resolution clock wrote 6 times slower)', async (t) => {
  const store = await SqliteStore.open(tempDb());
  const updates: string[] = [];
  const run = store.run.bind(store);
  store.run = (sql, params) => {
    if (sql.startsWith('UPDATE')) updates.push(sql.split(' SET ')[0]!);
    return run(sql, params);
  };
  const sink = toSqlite(store, { batchSize: 50_000, flushMs: 60_000 });
  const times = [...ROUNDED_BY_SQLITE, ...Array.from({ length: 20_000 - ROUNDED_BY_SQLITE.length }, (_, i) => 1_700_000_000_000 + i + 0.3)];
  times.forEach((at, i) => sink.insert('signals', { id: i + 1, session: 's', at, type: 'tick', body: { type: 'tick' } }));
  times.forEach((at, i) => sink.next({ kind: 'warning', seq: i + 1, session: 's', cycle: i, at, message: 'm' } as AgentEvent));
  await sink.flushed();
  t.deepEqual(updates, ['UPDATE signals', 'UPDATE signals', 'UPDATE events', 'UPDATE events'], 'two statements of at most 16 000 rows per table');
  const events = await store.all<{ at: number }>('SELECT at FROM events ORDER BY seq');
  const signals = await store.all<{ at: number }>('SELECT at FROM signals ORDER BY id');
  t.deepEqual(events.map((row) => row.at), times);
  t.deepEqual(signals.map((row) => row.at), times);
  await store.close();
});

test('large bodies, JSON columns and statements round-trip in one transaction, rows in order across statements', async (t) => {
  const store = await SqliteStore.open(tempDb(), { batchSize: 3 });
  const writes = countWrites(store);
  const sink = toSqlite(store, { batchSize: 1000, flushMs: 60_000 });
  const big = `${'"\\ é 😀 \n'.repeat(100_000)}end`;
  const state = { cycle: 4, memory: { entries: [big, { nested: [1.5, -0.000369703218099612, null, true] }] } };
  const config = { seed: 7, name: "o'da" };
  sink.insert('sessions', { id: 's1', started_at: 1000.25, status: 'running', resumed_from: null, first_seq: 1, start_cycle: 0, config });
  for (let id = 1; id <= 5; id++) sink.insert('signals', { id, session: 's1', at: 1000 + id, type: 'fact', body: { type: 'fact', subject: `mars ${id}`, text: big.slice(0, id * 1000) } });
  sink.insert('snapshots', { id: 1, session: 's1', at: 1006, cycle: 4, signal_id: 5, reason: 'save command', state });
  sink.run("UPDATE sessions SET status = 'ended', cycles = ? WHERE id = ?", [4, 's1']);
  for (let seq = 1; seq <= 8; seq++) sink.next({ kind: 'warning', seq, session: 's1', cycle: 4, at: 1000.1 + seq, message: big.slice(seq) });
  await sink.flushed();
  t.deepEqual(writes.sizes.length, 1, 'one transaction');
  t.like(await store.session('s1'), { started_at: 1000.25, status: 'ended', cycles: 4, config: JSON.stringify(config) });
  const signals = await store.signals('s1');
  t.deepEqual(signals.map((s) => s.id), [1, 2, 3, 4, 5]);
  t.is(signals[4]!.body, JSON.stringify({ type: 'fact', subject: 'mars 5', text: big.slice(0, 5000) }));
  t.is((await store.snapshot('s1', 'latest'))!.state, JSON.stringify(state));
  const events = await store.events({ session: 's1' });
  t.deepEqual(events.map((e) => [e.seq, e.at]), Array.from({ length: 8 }, (_, i) => [i + 1, 1000.1 + i + 1]));
  t.is(events[7]!.body, JSON.stringify({ message: big.slice(8) }));
  await store.close();
});

test('a statement that cannot be prepared is a reported error, and the rows go in once it can', async (t) => {
  const store = await SqliteStore.open(tempDb());
  const lines: string[] = [];
  const sink = toSqlite(store, { flushMs: 5, log: (l) => lines.push(l) });
  await store.run('ALTER TABLE events RENAME TO events_elsewhere');
  for (let seq = 1; seq <= 3; seq++) sink.next(heartbeatEvent(seq));
  const error = await t.throwsAsync(sink.flushed(), { instanceOf: StoreError });
  t.regex(error!.message, /insert into events: .*no such table: events/);
  t.is(sink.pending, 3, 'no row was dropped');
  await store.run('ALTER TABLE events_elsewhere RENAME TO events');
  await sink.flushed();
  t.deepEqual((await store.events({})).map(eventFromRow), [1, 2, 3].map(heartbeatEvent));
  t.regex(lines.at(-1)!, /writing works again; 3 delayed row\(s\) written/);
  await store.close();
});
