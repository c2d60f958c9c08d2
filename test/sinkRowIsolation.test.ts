/**
 * A row or statement SQLite refuses for what it is (a key already stored, a
 * CHECK constraint, a datatype mismatch, an SQL error) is left out of its
 * batch, reported with its table, key and SQLite's reason, and every other
 * row is written in the same transaction. Such a write used to fail its
 * whole transaction, which was retried for ever with the bad row in it: no
 * row queued with it or after it was written, and flushed() rejected naming
 * the constraint, not the row.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { StoreError } from '../sinks/storeError.js';
import { toSqlite } from '../sinks/toSqlite.js';
import type { AgentEvent } from '../streams/events.js';

const tempDb = (): string => join(mkdtempSync(join(tmpdir(), 'ooda-row-isolation-')), 'test.db');
/** Text that holds what a split of a chunk into its rows must not take for a row's end: commas, brackets, quotes, backslashes. */
const TRICKY = 'a "quoted", [bracketed] \\ back\\slash\\" },{ ] ü';
const signal = (id: number, at: number, n: number) => ({ id, session: 's1', at, type: 'fact', body: { n, text: TRICKY } });
const heartbeat = (seq: number, beat = seq): AgentEvent => ({ kind: 'heartbeat', seq, session: 's1', cycle: 0, at: 1000 + seq, beat });

/** A sink on a new store that flushes only when asked, with what it logged, what onError heard and how many transactions it tried. */
async function isolatingSink(batchSize = 500) {
  const db = tempDb();
  const store = await SqliteStore.open(db, { batchSize });
  const lines: string[] = [];
  const errors: StoreError[] = [];
  const writes = { tried: 0 };
  const write = store.write.bind(store);
  store.write = (batch) => (writes.tried++, write(batch));
  const sink = toSqlite(store, { batchSize, flushMs: 60_000, log: (line) => lines.push(line), onError: (error) => errors.push(error) });
  return { db, store, sink, lines, errors, writes };
}

test('rows and statements SQLite refuses are left out of their batch, each reported with its table, key and reason; every other write is made, in one transaction, with no retry', async (t) => {
  const { db, store, sink, lines, errors, writes } = await isolatingSink();
  t.teardown(() => store.close());
  sink.insert('signals', signal(5, 5.25, 5));
  await sink.flushed();

  for (let id = 1; id <= 10; id++) sink.insert('signals', signal(id, id === 5 ? 9.75 : id, 100 + id));
  sink.insert('signals', signal(8, 8, 999));
  sink.insert('sessions', { id: 's1', started_at: 1, status: 'bogus' as 'running', resumed_from: null, first_seq: 1, start_cycle: 0, config: {} });
  sink.insert('effects', { id: 1.5, session: 's1', cycle: 1, n: 0, at: 1, tool: 't', name: 'read x', outcome: 'ok' });
  sink.run('UPDATE sesions SET reason = ?', ['typo']);
  sink.insert('sessions', { id: 's2', started_at: 2, status: 'running', resumed_from: null, first_seq: 1, start_cycle: 0, config: {} });
  sink.run('UPDATE sessions SET reason = ? WHERE id = ?', ['kept', 's2']);
  const pending = sink.pending;
  await sink.flushed();

  t.is(writes.tried, 2, 'one transaction each flush: nothing was retried');
  t.is(sink.committed, 1 + pending, 'every write is settled');
  const stored = await store.all<{ id: number; at: number; n: number }>("SELECT id, at, body ->> 'n' AS n FROM signals ORDER BY id");
  t.deepEqual(
    stored.map(({ id, at, n }) => [id, at, n]),
    [[1, 1, 101], [2, 2, 102], [3, 3, 103], [4, 4, 104], [5, 5.25, 5], [6, 6, 106], [7, 7, 107], [8, 8, 108], [9, 9, 109], [10, 10, 110]],
    'the stored row 5 keeps its own time and body; the first row 8 of the batch is the one kept',
  );
  t.true((await store.all<{ text: string }>("SELECT body ->> 'text' AS text FROM signals")).every((row) => row.text === TRICKY), 'bodies written whole');
  t.deepEqual(await store.all('SELECT id, reason FROM sessions'), [{ id: 's2', reason: 'kept' }]);
  t.deepEqual(await store.all('SELECT id FROM effects'), []);
  const expected = [
    ['SQLITE_CONSTRAINT', 'the sessions row with id "s1"', 'CHECK constraint failed: status IN (\'running\', \'ended\', \'crashed\')'],
    ['SQLITE_CONSTRAINT', 'the signals row with id 5', 'UNIQUE constraint failed: signals.id'],
    ['SQLITE_CONSTRAINT', 'the signals row with id 8', 'UNIQUE constraint failed: signals.id'],
    ['SQLITE_MISMATCH', 'the effects row with id 1.5', 'datatype mismatch'],
    ['SQLITE_ERROR', 'the statement "UPDATE sesions SET reason = ?"', 'no such table: sesions'],
  ].map(([code, what, reason]) => [code, `store: write: ${db}: ${what} was left out, since SQLite refuses it (${reason}); the rest of its batch was written`]);
  t.deepEqual(lines, expected.map(([, message], i) => (i === 2 ? `${message} (2 refused for this reason so far)` : message)));
  t.deepEqual(errors.map((error) => [error.code, error.message]), expected.filter((_, i) => i !== 2), 'onError hears of each reason once');
  t.true(errors.every((error) => error instanceof StoreError));
});

test('a few bad rows among thousands, in several chunks: each is found and left out, and all the others are written in order', async (t) => {
  const { store, sink, lines, errors } = await isolatingSink(500);
  t.teardown(() => store.close());
  const stored = [100, 777, 1500, 1999];
  for (const seq of stored) sink.next(heartbeat(seq, -seq));
  await sink.flushed();
  for (let seq = 1; seq <= 2000; seq++) sink.next(heartbeat(seq));
  sink.complete();
  await sink.flushed();
  const rows = await store.all<{ seq: number; beat: number }>("SELECT seq, body ->> 'beat' AS beat FROM events ORDER BY seq");
  t.is(rows.length, 2000);
  t.deepEqual(rows.map((row) => row.seq), Array.from({ length: 2000 }, (_, i) => i + 1));
  t.deepEqual(rows.filter((row) => row.beat < 0).map((row) => row.seq), stored, 'the stored rows are as they were');
  t.deepEqual(lines.map((line) => /the events row with seq (\d+) was left out/.exec(line)?.[1]), stored.map(String));
  t.deepEqual(errors.map((error) => /the events row with seq (\d+) was left out/.exec(error.message)?.[1]), ['100'], 'onError hears of the reason once');
});

test('a store that cannot be written (full) still keeps the batch and retries it whole; once it has room, the bad row in it is left out and the rest written', async (t) => {
  const { store, sink, errors } = await isolatingSink();
  t.teardown(() => store.close());
  sink.insert('signals', signal(1, 1, 1));
  await sink.flushed();
  const { page_count: pages } = (await store.get<{ page_count: number }>('PRAGMA page_count'))!;
  await store.run(`PRAGMA max_page_count = ${pages}`);
  const big = 'x'.repeat(100_000);
  for (let id = 2; id <= 4; id++) sink.insert('signals', { ...signal(id, id, id), body: { big } });
  sink.insert('signals', signal(1, 1, 11));
  const full = await t.throwsAsync(sink.flushed(), { instanceOf: StoreError });
  t.is(full!.code, 'SQLITE_FULL');
  t.is(sink.pending, 4, 'nothing dropped while the store is full');
  t.deepEqual(errors.map((error) => error.code), ['SQLITE_FULL']);
  await store.run('PRAGMA max_page_count = 1073741823');
  await sink.flushed();
  t.deepEqual((await store.all<{ id: number }>('SELECT id FROM signals ORDER BY id')).map((row) => row.id), [1, 2, 3, 4]);
  t.deepEqual(errors.map((error) => error.code), ['SQLITE_FULL', 'SQLITE_CONSTRAINT']);
  t.regex(errors[1]!.message, /the signals row with id 1 was left out, since SQLite refuses it \(UNIQUE constraint failed: signals\.id\)/);
});

test('a row whose JSON SQLite cannot read (nested past its limit, given to the store already serialised) is left out of the write, and the rows around it written', async (t) => {
  const db = tempDb();
  const store = await SqliteStore.open(db);
  t.teardown(() => store.close());
  const batch = store.batch();
  for (let seq = 1; seq <= 3; seq++) {
    const event = heartbeat(seq);
    const json = seq === 2 ? JSON.stringify({ ...event, beat: JSON.parse(`${'['.repeat(1200)}${']'.repeat(1200)}`) }) : JSON.stringify(event);
    batch.insert('events', event, json);
  }
  const leftOut = await store.write(batch);
  t.deepEqual(leftOut.map((error) => error.message), [`store: write: ${db}: the events row with seq 2 was left out, since SQLite refuses it (malformed JSON); the rest of its batch was written`]);
  t.deepEqual((await store.events({})).map((row) => row.seq), [1, 3]);
});

/** The store's signals as [id, at], and the notes table's values, in order. */
async function storedRows(store: SqliteStore) {
  return {
    signals: (await store.all<{ id: number; at: number }>('SELECT id, at FROM signals ORDER BY id')).map(({ id, at }) => [id, at]),
    notes: (await store.all<{ n: number }>('SELECT n FROM notes ORDER BY rowid')).map(({ n }) => n),
  };
}

const ROLLBACK_ADVICE =
  "SQLite refuses it (%s) with ROLLBACK (a trigger's RAISE(ROLLBACK), a constraint declared ON CONFLICT ROLLBACK), which undoes the whole transaction, so nothing of the batch was written; it is tried again whole until that trigger or constraint is dropped";

test("a statement whose refusal undoes the whole transaction (a trigger's RAISE(ROLLBACK)) fails its batch whole: nothing of it is committed at any try, and once the trigger is dropped the batch is written once", async (t) => {
  const { db, store, sink, errors } = await isolatingSink();
  t.teardown(() => store.close());
  await store.run('CREATE TABLE notes (n INTEGER)');
  await store.run("CREATE TRIGGER no_odd_notes BEFORE INSERT ON notes WHEN NEW.n % 2 = 1 BEGIN SELECT RAISE(ROLLBACK, 'no odd notes'); END");
  sink.insert('signals', signal(1, 1, 1));
  await sink.flushed();

  sink.insert('signals', signal(2, 2, 2));
  sink.run('INSERT INTO notes VALUES (?)', [2]);
  sink.run('INSERT INTO notes VALUES (?)', [3]);
  sink.insert('signals', signal(3, 3, 3));
  sink.run('UPDATE signals SET at = at + 1 WHERE id = 1', []);
  const message = `store: write: ${db}: the statement "INSERT INTO notes VALUES (?)" ended the transaction of its batch: ${ROLLBACK_ADVICE.replace('%s', 'no odd notes')}`;
  for (let attempt = 1; attempt <= 3; attempt++) {
    await t.throwsAsync(sink.flushed(), { instanceOf: StoreError, message }, `attempt ${attempt}`);
    t.deepEqual(await storedRows(store), { signals: [[1, 1]], notes: [] }, `attempt ${attempt}: nothing of the batch is committed, neither what came before the statement nor after it`);
  }
  t.is(sink.pending, 5, 'the batch is kept whole');

  await store.run('DROP TRIGGER no_odd_notes');
  await sink.flushed();
  t.deepEqual(await storedRows(store), { signals: [[1, 2], [2, 2], [3, 3]], notes: [2, 3] }, 'the batch is written once: the UPDATE ran once');
  t.deepEqual(errors.map((error) => error.message), [message], 'the failure is reported once');
});

test("rows whose insert undoes the whole transaction (a trigger's RAISE(ROLLBACK) on the store's table) fail their batch whole, naming them: no half of them is committed, nor a statement after them", async (t) => {
  const { db, store, sink } = await isolatingSink();
  t.teardown(() => store.close());
  await store.run('CREATE TABLE notes (n INTEGER)');
  await store.run("CREATE TRIGGER no_signal_3 BEFORE INSERT ON signals WHEN NEW.id = 3 BEGIN SELECT RAISE(ROLLBACK, 'no signal 3'); END");
  for (let id = 1; id <= 4; id++) sink.insert('signals', signal(id, id, id));
  sink.run('INSERT INTO notes VALUES (?)', [1]);
  for (let attempt = 1; attempt <= 2; attempt++) {
    await t.throwsAsync(sink.flushed(), { instanceOf: StoreError, message: `store: write: ${db}: the 4 signals rows with id 1 to 4 ended the transaction of its batch: ${ROLLBACK_ADVICE.replace('%s', 'no signal 3')}` });
    t.deepEqual(await storedRows(store), { signals: [], notes: [] }, `attempt ${attempt}`);
  }
  await store.run('DROP TRIGGER no_signal_3');
  await sink.flushed();
  t.deepEqual(await storedRows(store), { signals: [[1, 1], [2, 2], [3, 3], [4, 4]], notes: [1] });
});
