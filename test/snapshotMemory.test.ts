/**
 * What SQLite holds to write a snapshot. A snapshot is the whole mind, one
 * row; read out of a JSON chunk like the other rows, SQLite held the chunk,
 * its parse, the row's `value` and its `state` at once: a run with 60 goals of
 * 900 KB peaked at 1.6 GB with a store against 0.34 GB without, most of it in
 * the exit snapshot's insert. SQLite's own heap is capped here with
 * `PRAGMA hard_heap_limit` (process-wide, hence a file of its own).
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { toSqlite } from '../sinks/toSqlite.js';

test('an 8 MB snapshot is written with SQLite capped at 40 MB of heap, byte for byte as JSON.stringify writes its state', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-snapshot-memory-'));
  const store = await SqliteStore.open(join(dir, 'a.db'));
  t.teardown(async () => {
    await store.run('PRAGMA hard_heap_limit = 0');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.run(`PRAGMA hard_heap_limit = ${40 * 1024 * 1024}`);
  const sink = toSqlite(store, { log: () => undefined });
  const state = { memory: Array.from({ length: 80 }, (_, id) => ({ id, text: `entry ${id} ${'lorem ipsum '.repeat(8738)}`, at: id + 0.1 })) };
  sink.insert('snapshots', { id: 1, session: 's', at: 1.5, cycle: 3, signal_id: 0, reason: 'save command', state });
  await sink.flushed();
  const row = await store.get<{ at: number; state: string }>('SELECT at, state FROM snapshots WHERE id = 1');
  t.is(row?.at, 1.5);
  t.true(row?.state === JSON.stringify(state), 'the state as JSON.stringify wrote it');
});
