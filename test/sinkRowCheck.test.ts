/**
 * A row the store could never write is refused as the sink queues it, naming
 * its table, its key and the column. Such a row (`at: NaN`, which JSON wrote
 * as null; a body nested past SQLite's JSON limit) used to be accepted
 * without a word and then failed its transaction on every retry, so no row
 * queued with it or after it was ever written; one with no JSON form threw
 * V8's words, naming nothing, after it had been counted as pending.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import type { StoreError } from '../sinks/storeError.js';
import { toSqlite } from '../sinks/toSqlite.js';
import type { AgentEvent } from '../streams/events.js';

const tempDb = (): string => join(mkdtempSync(join(tmpdir(), 'ooda-row-check-')), 'test.db');
const signal = (id: number, changes: Record<string, unknown> = {}) => ({ id, session: 's1', at: id, type: 'fact', body: { n: id } as unknown, ...changes });

/** A value nested `levels` deep: [[[…]]]. */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

test('insert refuses a row the store could never write, naming its table, key and column; nothing of it is queued and the rows around it are written', async (t) => {
  const store = await SqliteStore.open(tempDb());
  t.teardown(() => store.close());
  const lines: string[] = [];
  const sink = toSqlite(store, { flushMs: 60_000, log: (line) => lines.push(line) });
  sink.insert('signals', signal(1));
  t.throws(() => sink.insert('signals', signal(2, { at: NaN })), { instanceOf: RangeError, message: 'toSqlite: the signals row with id 2 is refused: at is NaN, not a finite number (JSON would write null)' });
  t.throws(() => sink.insert('effects', { id: 3, session: 's1', cycle: Infinity, n: 0, at: 3, tool: 't', name: 'read x', outcome: 'ok' }), {
    instanceOf: RangeError,
    message: 'toSqlite: the effects row with id 3 is refused: cycle is Infinity, not a finite number (JSON would write null)',
  });
  t.throws(() => sink.insert('signals', signal(4, { body: { n: 4n } })), { instanceOf: TypeError, message: 'toSqlite: the signals row with id 4 is refused: body has no JSON form (Do not know how to serialize a BigInt)' });
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  t.throws(() => sink.insert('signals', signal(5, { body: circular })), { instanceOf: TypeError, message: /^toSqlite: the signals row with id 5 is refused: body has no JSON form \(Converting circular structure to JSON/ });
  t.throws(() => sink.insert('signals', signal(6, { body: nested(1500) })), {
    instanceOf: RangeError,
    message: "toSqlite: the signals row with id 6 is refused: it nests more than 900 levels deep (objects and arrays within one another, in its body), more than SQLite's JSON functions read",
  });
  t.throws(() => sink.insert('snapshots', { id: 1, session: 's1', at: 1, cycle: 0, signal_id: 0, reason: 'save command', state: { count: 1n } }), {
    instanceOf: TypeError,
    message: 'toSqlite: the snapshots row with id 1 is refused: state has no JSON form (Do not know how to serialize a BigInt)',
  });
  t.throws(() => sink.insert('snapshots', { id: 2, session: 's1', at: 1, cycle: 0, signal_id: 0, reason: 'exit', state: undefined }), {
    instanceOf: TypeError,
    message: 'toSqlite: the snapshots row with id 2 is refused: state has no JSON form (undefined)',
  });
  t.throws(() => sink.insert('signal' as 'signals', signal(7)), { instanceOf: TypeError, message: 'toSqlite: no table "signal" takes rows (the tables are sessions, signals, effects, events, snapshots, provenance)' });
  t.throws(() => sink.insert('signals', signal(8), [{ sql: 'COMMIT', params: [] }]), { instanceOf: TypeError, message: /^toSqlite: "COMMIT" is refused: the sink runs each statement inside the transaction of its batch/ });
  t.throws(() => sink.run(42 as unknown as string, []), { instanceOf: TypeError, message: "toSqlite: a statement's sql must be a string (got 42)" });
  t.throws(() => sink.run('UPDATE sessions SET reason = ?', 'why' as unknown as unknown[]), { instanceOf: TypeError, message: 'toSqlite: the parameters of "UPDATE sessions SET reason = ?" must be an array (got "why")' });
  t.throws(() => sink.run(' begin immediate', []), { instanceOf: TypeError, message: /^toSqlite: " begin immediate" is refused/ });
  t.is(sink.pending, 1, 'only the good row is queued');
  sink.insert('signals', signal(9, { body: nested(800) }));
  await sink.flushed();
  t.deepEqual((await store.all<{ id: number }>('SELECT id FROM signals ORDER BY id')).map((row) => row.id), [1, 9]);
  t.is(sink.committed, 2);
  t.deepEqual(lines, [], 'refused to the caller, not logged as a write failure');
});

/** A sink on a fresh store that keeps its lines and onError reports, and flushes only when told. */
async function reportingSink(t: ExecutionContext) {
  const store = await SqliteStore.open(tempDb());
  t.teardown(() => store.close());
  const lines: string[] = [];
  const errors: StoreError[] = [];
  const sink = toSqlite(store, { flushMs: 60_000, log: (line) => lines.push(line), onError: (error) => errors.push(error) });
  return { store, sink, lines, errors };
}

test('an event with a NaN header column is refused as it comes, reported on stderr and to onError naming its seq and column; the stream goes on and the other events are stored', async (t) => {
  const { store, sink, lines, errors } = await reportingSink(t);
  const heartbeat = (seq: number, at: number): AgentEvent => ({ kind: 'heartbeat', seq, session: 's1', cycle: 0, at, beat: seq });
  sink.next(heartbeat(1, 1001));
  sink.next(heartbeat(2, NaN));
  sink.next(heartbeat(3, 1003));
  sink.complete();
  await sink.flushed();
  t.deepEqual((await store.events({})).map((row) => row.seq), [1, 3]);
  const message = 'toSqlite: the events row with seq 2 is refused: at is NaN, not a finite number (JSON would write null)';
  t.deepEqual(lines, [message]);
  t.deepEqual(errors.map((error) => [error.code, error.message]), [['ROW_REFUSED', message]]);
});

test('events refused for the same reason are each said on stderr with a count, and passed to onError the first time only; another reason is passed on again', async (t) => {
  const { store, sink, lines, errors } = await reportingSink(t);
  const heartbeat = (seq: number, at: number, cycle = 0): AgentEvent => ({ kind: 'heartbeat', seq, session: 's1', cycle, at, beat: seq });
  sink.next(heartbeat(1, NaN));
  sink.next(heartbeat(2, 1002));
  sink.next(heartbeat(3, NaN));
  sink.next(heartbeat(4, NaN));
  sink.next(heartbeat(5, 1005, Infinity));
  sink.complete();
  await sink.flushed();
  t.deepEqual((await store.events({})).map((row) => row.seq), [2]);
  const nan = (seq: number) => `toSqlite: the events row with seq ${seq} is refused: at is NaN, not a finite number (JSON would write null)`;
  const infinite = 'toSqlite: the events row with seq 5 is refused: cycle is Infinity, not a finite number (JSON would write null)';
  t.deepEqual(lines, [nan(1), `${nan(3)} (2 refused for this reason so far)`, `${nan(4)} (3 refused for this reason so far)`, infinite]);
  t.deepEqual(errors.map((error) => [error.code, error.message, error.detail]), [
    ['ROW_REFUSED', nan(1), 'at is NaN, not a finite number (JSON would write null)'],
    ['ROW_REFUSED', infinite, 'cycle is Infinity, not a finite number (JSON would write null)'],
  ]);
});

test('a statement that would end the transaction of its batch is refused as it is given, also behind a comment or with OR ROLLBACK; the same words in a string, a quoted name or a comment are not', async (t) => {
  const store = await SqliteStore.open(tempDb());
  t.teardown(() => store.close());
  const sink = toSqlite(store, { flushMs: 60_000, log: () => undefined });
  const insertOrRollback = "INSERT OR ROLLBACK INTO signals (id, session, at, type, body) VALUES (1, 's1', 1, 'fact', '{}')";
  t.throws(() => sink.run(insertOrRollback, []), {
    instanceOf: TypeError,
    message: `toSqlite: ${JSON.stringify(insertOrRollback)} is refused: its OR ROLLBACK would undo the whole transaction of its batch when it conflicts, not only itself; leave it out (OR ABORT, the default, undoes only the statement, which the sink then reports and leaves out)`,
  });
  t.throws(() => sink.run("update or\n  rollback sessions SET reason = 'x'", []), { instanceOf: TypeError, message: /is refused: its OR ROLLBACK would undo/ });
  for (const sql of ['/* done */ COMMIT', '-- now\nROLLBACK TO ooda_batch', '  /* a */ /* b */ release ooda_batch']) {
    t.throws(() => sink.run(sql, []), { instanceOf: TypeError, message: /is refused: the sink runs each statement inside the transaction of its batch/ }, sql);
  }
  t.is(sink.pending, 0);
  await store.run('CREATE TABLE notes (text TEXT, "or rollback" TEXT)');
  sink.run("INSERT INTO notes (text) VALUES ('or rollback; commit') -- or rollback", []);
  sink.run('UPDATE notes SET "or rollback" = ? /* or rollback */', ['x']);
  await sink.flushed();
  t.deepEqual(await store.all('SELECT * FROM notes'), [{ text: 'or rollback; commit', 'or rollback': 'x' }]);
});
