import test from 'ava';
import { WriteBatch } from '../sinks/writeBatch.js';

const event = (seq: number, text: string) => ({ kind: 'input', seq, session: 's', cycle: seq, at: seq, text });

test('a chunk of rows stays within 1 MiB: a long row that would take it past is put in the next chunk (rows of 600 KB go one per chunk)', (t) => {
  const batch = new WriteBatch(500);
  for (let seq = 1; seq <= 3; seq++) {
    const row = event(seq, 'x'.repeat(600 * 1024));
    batch.insert('events', row, JSON.stringify(row));
  }
  const chunks = batch.chunks('events');
  t.deepEqual(
    chunks.map((chunk) => (JSON.parse(chunk.toString('utf8')) as { seq: number }[]).map((row) => row.seq)),
    [[1], [2], [3]],
  );
  for (const chunk of chunks) t.true(chunk.length <= 1024 * 1024, `a chunk of ${chunk.length} bytes`);
});

test('short rows still fill a chunk up to its row count, in order', (t) => {
  const batch = new WriteBatch(3);
  for (let seq = 1; seq <= 7; seq++) batch.insert('events', event(seq, 'hello'));
  t.deepEqual(
    batch.chunks('events').map((chunk) => (JSON.parse(chunk.toString('utf8')) as { seq: number }[]).map((row) => row.seq)),
    [[1, 2, 3], [4, 5, 6], [7]],
  );
});
