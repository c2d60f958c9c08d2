/**
 * A session keeps its first snapshot and its newest two (sinks/snapshotRetention.ts):
 * however often it saves, replay still starts from its first state, resume
 * and crash recovery from its latest, and the query tables still show it.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEVER } from 'rxjs';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { pruneSnapshots } from '../sinks/snapshotRetention.js';
import { toSqlite, type SqliteSink } from '../sinks/toSqlite.js';
import type { WriteBatch } from '../sinks/writeBatch.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { replaySession } from '../streams/replay.js';
import { Persistence } from '../streams/session.js';
import { withStore } from './helpers/withStore.js';
import { recordSession } from './helpers/recordSession.js';

const config = AgentConfig.parse({ seed: 3, heartbeatMs: 0, maxCycles: 30, stallThreshold: 1000 });
const quiet = { log: () => undefined };

/** Facts, with a save command after every second one, and a goal that is never met; ten saves in all. */
const STIMULI = [
  { type: 'goal', description: 'Find moons and orbits of planet 3', criteria: 'zzqx' },
  ...Array.from({ length: 20 }, (_, i) => [
    { type: 'fact', subject: `moon ${i}`, predicate: 'orbits', object: 'planet 3' },
    ...(i % 2 ? [{ type: 'command', command: 'save' }] : []),
  ]).flat(),
].map((value) => ({ source: 't', value }));


/** Resumes the latest session of `db` as `next` and returns the restored mind's state and what was re-applied. */
async function resume(db: string): Promise<{ state: unknown; reapplied: number }> {
  const persistence = await Persistence.open({ db, fresh: false }, { session: 'next', config, ...quiet });
  const agent = createAgent({ ...persistence.agentOptions(), config: persistence.config, session: 'next' });
  persistence.attach(agent, agent.run({ inputs: [NEVER] }));
  const state = agent.mind.toJSON();
  await persistence.close('checked');
  return { state, reapplied: persistence.resumed!.reapplied };
}

const tempDb = (t: { teardown: (f: () => void) => void }): string => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-retention-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'a.db');
};

test('a session that saved twelve times keeps its first snapshot and its newest two; it replays identically and resumes from the latest', async (t) => {
  const db = tempDb(t);
  const agent = await recordSession(db, 'rec', config, STIMULI);
  const kept = await withStore(db, (store) => store.all<{ id: number; reason: string }>("SELECT id, reason FROM snapshots WHERE session = 'rec' ORDER BY id"));
  t.deepEqual(kept, [
    { id: 1, reason: 'start' },
    { id: 11, reason: 'save command' },
    { id: 12, reason: 'exit' },
  ]);
  t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true });
  const resumed = await resume(db);
  t.is(resumed.reapplied, 0);
  t.deepEqual(resumed.state, agent.mind.toJSON());
});

test('with its latest snapshot deleted by hand (say it was damaged), a session resumes from the one before plus the signals recorded after it', async (t) => {
  const db = tempDb(t);
  const agent = await recordSession(db, 'rec', config, STIMULI);
  await withStore(db, (store) => store.run("DELETE FROM snapshots WHERE session = 'rec' AND reason = 'exit'"));
  const resumed = await resume(db);
  t.true(resumed.reapplied > 0);
  t.deepEqual(resumed.state, agent.mind.toJSON());
});

test('after a crash, resume restores the newest kept snapshot plus the signals recorded after it: the mind as it was', async (t) => {
  const db = tempDb(t);
  const agent = await recordSession(db, 'rec', config, STIMULI, { crash: true });
  const kept = await withStore(db, (store) => store.all<{ id: number; reason: string }>("SELECT id, reason FROM snapshots WHERE session = 'rec' ORDER BY id"));
  t.deepEqual(kept, [
    { id: 1, reason: 'start' },
    { id: 10, reason: 'save command' },
    { id: 11, reason: 'save command' },
  ]);
  const resumed = await resume(db);
  t.true(resumed.reapplied > 0, 'the crashed session recorded signals after its last save');
  t.deepEqual(resumed.state, agent.mind.toJSON());
  t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true });
});

test('a snapshot row and the statements queued with it are written in one transaction, whatever the batch size', async (t) => {
  const store = await SqliteStore.open(':memory:');
  t.teardown(() => store.close());
  const batches: WriteBatch[] = [];
  const write = store.write.bind(store);
  store.write = (batch) => (batches.push(batch), write(batch));
  const sink = toSqlite(store, { batchSize: 1 });
  const prune = { sql: "DELETE FROM snapshots WHERE session = 's' AND id < ?", params: [2] };
  for (const id of [1, 2]) sink.insert('snapshots', { id, session: 's', at: id, cycle: 0, signal_id: 0, reason: 'auto-save', state: {} }, [prune]);
  await sink.flushed();
  t.true(batches.length >= 2);
  for (const batch of batches) t.is(batch.snapshotRows().length, batch.statements.length, 'each snapshot with its statement');
  t.deepEqual(await store.all('SELECT id FROM snapshots'), [{ id: 2 }]);
});

test('snapshots queued while the disk was full are written once room for the kept three is freed: the ones the pruning deletes are not inserted first', async (t) => {
  const store = await SqliteStore.open(tempDb(t));
  t.teardown(() => store.close());
  const failed: string[] = [];
  const sink = toSqlite(store, { log: () => undefined, onError: (error) => failed.push(error.message) });
  sink.insert('sessions', { id: 's', started_at: 0, status: 'running', resumed_from: null, first_seq: 1, start_cycle: 0, config: {} });
  await sink.flushed();
  const pages = async (): Promise<number> => (await store.get<{ page_count: number }>('PRAGMA page_count'))!.page_count;
  // A full disk, as SQLite's size limit: no page more.
  await store.run(`PRAGMA max_page_count = ${await pages()}`);
  const mind = { memory: 'm'.repeat(200_000) };
  const save = (id: number): void =>
    sink.insert('snapshots', { id, session: 's', at: id, cycle: id, signal_id: 0, reason: 'save command', state: mind }, [pruneSnapshots('s')]);
  for (let id = 1; id <= 5; id++) save(id);
  for (let i = 0; i < 100 && failed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.regex(failed[0] ?? '', /is full/);
  for (let id = 6; id <= 10; id++) save(id);
  // Room for four minds (200 KB each, about 50 pages of 4 KB): the three kept fit, the ten queued do not.
  await store.run(`PRAGMA max_page_count = ${(await pages()) + 200}`);
  await sink.flushed();
  t.deepEqual(await store.all('SELECT id FROM snapshots ORDER BY id'), [{ id: 1 }, { id: 9 }, { id: 10 }]);
  t.is(sink.pending, 0);
});

/**
 * A sink with a 2 MB bound on a store that is then full (SQLite's size limit:
 * no page more), and the sink's saturation as it goes; `before` runs first,
 * then ten 300 KB saves (each with its pruning) are queued: past the bound.
 */
async function tenSavesOnAFullStore(t: ExecutionContext, before: (sink: SqliteSink) => void = () => undefined) {
  const store = await SqliteStore.open(tempDb(t));
  t.teardown(() => store.close());
  const failed: string[] = [];
  const sink = toSqlite(store, { maxQueuedBytes: 2_000_000, log: () => undefined, onError: (error) => failed.push(error.message) });
  const states: boolean[] = [];
  sink.saturated$.subscribe((saturated) => states.push(saturated));
  sink.insert('sessions', { id: 's', started_at: 0, status: 'running', resumed_from: null, first_seq: 1, start_cycle: 0, config: {} });
  await sink.flushed();
  await store.run(`PRAGMA max_page_count = ${(await store.get<{ page_count: number }>('PRAGMA page_count'))!.page_count}`);
  before(sink);
  const mind = { memory: 'm'.repeat(300_000) };
  for (let id = 1; id <= 10; id++) {
    sink.insert('snapshots', { id, session: 's', at: id, cycle: id, signal_id: 0, reason: 'save command', state: mind }, [pruneSnapshots('s')]);
  }
  t.deepEqual(states, [true], '3 MB of minds queued: past the 2 MB bound');
  for (let i = 0; i < 100 && failed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.regex(failed[0] ?? '', /is full/);
  return { store, sink, states };
}

test('snapshots a failed write left out no longer count toward the queue bound: the sink is released once only the kept three are held', async (t) => {
  const { store, sink, states } = await tenSavesOnAFullStore(t);
  t.deepEqual(states, [true, false], 'the failed write let go of all but 1, 9 and 10: 0.9 MB held, under half the bound');
  t.is(sink.pending, 11, 'nothing counted as written: 10 snapshots and their pruning');
  await store.run('PRAGMA max_page_count = 1073741823');
  await sink.flushed();
  t.deepEqual(await store.all('SELECT id FROM snapshots ORDER BY id'), [{ id: 1 }, { id: 9 }, { id: 10 }]);
});

test('snapshots left out are let go also when the failed write stopped at rows before them (the events a save comes with)', async (t) => {
  // A signal (inserted before the snapshots) that needs pages of its own: the write fails there.
  const { store, sink, states } = await tenSavesOnAFullStore(t, (sink) => sink.insert('signals', { id: 1, session: 's', at: 1, type: 'input', body: { text: 's'.repeat(50_000) } }));
  t.deepEqual(states, [true, false], 'all but 1, 9 and 10 let go: under half the bound');
  await store.run('PRAGMA max_page_count = 1073741823');
  await sink.flushed();
  t.deepEqual(await store.all('SELECT id FROM snapshots ORDER BY id'), [{ id: 1 }, { id: 9 }, { id: 10 }]);
});
