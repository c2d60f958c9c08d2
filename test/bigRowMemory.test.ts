/**
 * What SQLite holds to write big rows. A run with 60 goals of 900 KB peaked
 * at 1.6 GB with a store against 0.34 GB without. A snapshot is the whole
 * mind, one row; read out of a JSON chunk like the other rows, SQLite held
 * the chunk, its parse, the row's `value` and its `state` at once. And a
 * chunk of 500 rows carrying such goals was tens of MB, held several times
 * over while inserted. SQLite's own heap is capped here with
 * `PRAGMA hard_heap_limit` (process-wide, hence a file of its own).
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { toSqlite } from '../sinks/toSqlite.js';

/** A store in a new folder, with SQLite's heap capped at `mb` MB until the test ends. */
async function cappedStore(t: ExecutionContext, mb: number): Promise<SqliteStore> {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-big-rows-'));
  const store = await SqliteStore.open(join(dir, 'a.db'));
  t.teardown(async () => {
    await store.run('PRAGMA hard_heap_limit = 0');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.run(`PRAGMA hard_heap_limit = ${mb * 1024 * 1024}`);
  return store;
}

test('an 8 MB snapshot is written with SQLite capped at 40 MB of heap, byte for byte as JSON.stringify writes its state', async (t) => {
  const store = await cappedStore(t, 40);
  const sink = toSqlite(store, { log: () => undefined });
  const state = { memory: Array.from({ length: 80 }, (_, id) => ({ id, text: `entry ${id} ${'lorem ipsum '.repeat(8738)}`, at: id + 0.1 })) };
  sink.insert('snapshots', { id: 1, session: 's', at: 1.5, cycle: 3, signal_id: 0, reason: 'save command', state });
  await sink.flushed();
  const row = await store.get<{ at: number; state: string }>('SELECT at, state FROM snapshots WHERE id = 1');
  t.is(row?.at, 1.5);
  t.true(row?.state === JSON.stringify(state), 'the state as JSON.stringify wrote it');
});

test('60 events of 300 KB (18 MB in one batch of 500 rows) are written with SQLite capped at 40 MB of heap, bodies intact', async (t) => {
  const store = await cappedStore(t, 40);
  const sink = toSqlite(store, { log: () => undefined });
  const message = (seq: number): string => `goal ${seq} ${'lorem ipsum '.repeat(25_000)}`;
  for (let seq = 1; seq <= 60; seq++) sink.next({ kind: 'warning', seq, session: 's', cycle: 0, at: seq, message: message(seq) });
  await sink.flushed();
  const rows = await store.all<{ seq: number; body: string }>('SELECT seq, body FROM events ORDER BY seq');
  t.deepEqual(rows.map((row) => row.seq), Array.from({ length: 60 }, (_, i) => i + 1));
  t.true(rows.every((row) => JSON.parse(row.body).message === message(row.seq)));
});
