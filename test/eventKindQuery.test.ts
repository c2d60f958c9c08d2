/**
 * `ooda events --session S --kind K` (SqliteStore.eventPages, nthNewestSeq
 * for --last) on a store where kind K is common in other sessions: the walk
 * of the `(kind)` index is bounded to S's seq range. It used to read every
 * event of kind K of the sessions after S (forward, at the last page) or
 * after it (newest first, for --last), each row read to check its session:
 * 1.4 s for `--last 3` of the first of 50 sessions of 40 000 events each.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { bytesRead, readMeasuringTest } from './helpers/bytesRead.js';

/** A store with sessions a, b and c, each a seq range: 1000, 100 000 and 1000 events; one in ten of a's and c's, and all of b's, are decisions. */
async function storeWithBusySession(): Promise<string> {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-event-kind-')), 'store.db');
  const writer = await SqliteStore.open(db);
  await writer.run(`INSERT INTO sessions (id, started_at, status, first_seq, start_cycle, cycles, config) VALUES ('a', 0, 'ended', 1, 0, 100, '{}'), ('b', 1, 'ended', 1001, 100, 10100, '{}'), ('c', 2, 'ended', 101001, 10100, 10200, '{}')`);
  await writer.run(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 102000),
      e(seq, session) AS (SELECT i, CASE WHEN i <= 1000 THEN 'a' WHEN i <= 101000 THEN 'b' ELSE 'c' END FROM n)
    INSERT INTO events (seq, session, cycle, at, kind, body)
    SELECT seq, session, seq / 10, seq, CASE WHEN session = 'b' OR seq % 10 = 0 THEN 'decision' ELSE 'action' END, '{"tool":"' || hex(randomblob(40)) || '"}' FROM e`);
  await writer.close();
  return db;
}

readMeasuringTest('a session\u2019s events of one kind are read without reading that kind\u2019s events of the other sessions', async (t) => {
  const db = await storeWithBusySession();
  for (const session of ['a', 'c']) {
    const store = await SqliteStore.open(db, { access: 'read' });
    const start = bytesRead();
    const seqs: number[] = [];
    for await (const rows of store.eventPages({ session, kind: 'decision' }, 40)) seqs.push(...rows.map((row) => row.seq));
    const fifthNewest = await store.nthNewestSeq({ session, kind: 'decision' }, 5);
    const read = bytesRead() - start;
    await store.close();
    const first = session === 'a' ? 10 : 101010;
    t.deepEqual(seqs, Array.from({ length: 100 }, (_, i) => first + 10 * i), `${session}: its 100 decisions, in seq order`);
    t.is(fifthNewest, seqs.at(-5), `${session}: the fifth newest decision (--last 5 starts there)`);
    // Session b's 100 000 decisions take over 10 MB.
    t.true(read < 1024 * 1024, `${session}: reading its decisions read ${read} bytes`);
  }
});
