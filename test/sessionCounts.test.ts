/**
 * `ooda sessions` (SqliteStore.sessions) on a long-lived store: each
 * session's event and signal counts are the real ones — across sessions run,
 * killed (-9) mid-run, resumed and pruned — and listing them does not read
 * every event of the store. Counting the rows read the whole `(session, seq)`
 * index, and the last cycle (max(cycle)) every event row: 4 s on a store of 2
 * million events.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { bytesRead, readMeasuringTest } from './helpers/bytesRead.js';
import { events, finished, runCli, startCli, until } from './helpers/cli.js';
import { storedEventCount } from './helpers/storedEvents.js';

const NEVER_DONE = { OODA_STALL_THRESHOLD: '1000000' };
const QUIET = ['--heartbeat', '0', '--no-stdin'];

/** Each session's real counts and last event's cycle, counted row by row. */
async function counted(db: string): Promise<Record<string, unknown>[]> {
  const store = await SqliteStore.open(db, { access: 'read' });
  try {
    return await store.all(`
      SELECT s.id,
        (SELECT count(*) FROM events WHERE session = s.id) AS events,
        (SELECT count(*) FROM signals WHERE session = s.id) AS signals,
        (SELECT count(*) FROM snapshots WHERE session = s.id) AS snapshots
      FROM sessions s ORDER BY s.rowid`);
  } finally {
    await store.close();
  }
}

test('ooda sessions counts each session\u2019s events and signals as they are stored, after a crash, a resume, a fresh session and a prune', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-session-counts-')), 'store.db');
  const ok = async (args: string[], input = ''): Promise<void> => {
    const result = await runCli(args, input, NEVER_DONE);
    t.is(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  };
  await ok(['run', '--db', db, '--session', 'first', ...QUIET, '--max-cycles', '5', '--goal', 'Find qzx wvy']);
  // A run killed while it writes: its last events (and its end) never reach the store.
  const busy = startCli(['run', '--db', db, '--session', 'killed', ...QUIET, '--max-cycles', '1000000', '--goal', 'Find qzx wvy'], NEVER_DONE);
  const killed = finished(busy);
  const before = Number(storedEventCount(db));
  await until(() => String(Number(storedEventCount(db)) - before > 300), /true/);
  busy.kill('SIGKILL');
  await killed;
  await ok(['resume', '--db', db, '--session', 'resumed', ...QUIET, '--max-cycles', '4']);
  await ok(['run', '--db', db, '--fresh', '--session', 'fresh', ...QUIET, '--max-cycles', '3', '--goal', 'Find rings of Saturn']);
  await ok(['prune', '--db', db, '--keep', '3']);

  const real = await counted(db);
  t.deepEqual(real.map((row) => row.id), ['killed', 'resumed', 'fresh'], 'the oldest session was pruned');
  const listed = await runCli(['sessions', '--db', db, '--json']);
  t.is(listed.code, 0, listed.stderr);
  t.deepEqual(
    events(listed.stdout).map(({ id, events: n, signals, snapshots }) => ({ id, events: n, signals, snapshots })),
    real,
  );
  t.true(real.every((row) => (row.events as number) > 0 && (row.signals as number) > 0));
});

readMeasuringTest('listing the sessions of a store of many events reads a few pages of it, not its events', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-session-counts-')), 'store.db');
  const writer = await SqliteStore.open(db);
  await writer.run(`INSERT INTO sessions (id, started_at, status, first_seq, start_cycle, cycles, config) VALUES ('a', 0, 'ended', 1, 0, 2000, '{}'), ('b', 1, 'running', 100001, 2000, NULL, '{}')`);
  await writer.run(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
    INSERT INTO events (seq, session, cycle, at, kind, body)
    SELECT i, CASE WHEN i <= 100000 THEN 'a' ELSE 'b' END, i / 50, i, 'action', '{"tool":"' || hex(randomblob(40)) || '"}' FROM n`);
  await writer.close();

  const store = await SqliteStore.open(db, { access: 'read' });
  t.teardown(() => store.close());
  const start = bytesRead();
  const sessions = await store.sessions();
  const read = bytesRead() - start;
  t.deepEqual(
    sessions.map(({ id, events: n, last_cycle }) => ({ id, events: n, last_cycle })),
    [
      { id: 'a', events: 100000, last_cycle: 2000 },
      { id: 'b', events: 100000, last_cycle: 4000 },
    ],
  );
  // The store is over 20 MB, its (session, seq) index alone about 2 MB.
  t.true(read < 256 * 1024, `listing read ${read} bytes`);
});
