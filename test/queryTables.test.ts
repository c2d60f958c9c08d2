/**
 * The query tables (`goals`, `episodes`, `triples`) show the session's latest
 * snapshot; a save whose rows for a table are those of the previous save leaves
 * that table alone (sinks/queryTables.ts).
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { QueryTables } from '../sinks/queryTables.js';
import { pruneSnapshots } from '../sinks/snapshotRetention.js';
import { toSqlite } from '../sinks/toSqlite.js';
import type { MindState } from '../mind/mind.js';
import { AgentConfig } from '../streams/config.js';
import { recordSession } from './helpers/recordSession.js';

const config = AgentConfig.parse({ seed: 3, heartbeatMs: 0, maxCycles: 40, stallThreshold: 1000 });
const save = { type: 'command', command: 'save' };
const fact = (i: number) => ({ type: 'fact', subject: `moon ${i}`, predicate: 'orbits', object: 'planet 3' });
/** Saves with nothing learnt between them, saves after new facts, a consolidation (episodes) and a new goal. */
const STIMULI = [
  { type: 'goal', description: 'Find moons and orbits of planet 3', criteria: 'zzqx' },
  fact(1),
  save,
  save,
  save,
  fact(2),
  save,
  { type: 'command', command: 'consolidate' },
  save,
  save,
  { type: 'goal', description: 'Map the rings of planet 6', priority: 200 },
  save,
  fact(3),
  save,
].map((value) => ({ source: 't', value }));

type Table = 'goals' | 'episodes' | 'triples';
const TABLES: Table[] = ['goals', 'episodes', 'triples'];

/** Each table's rows as a state gives them, sorted; goals with the snapshot id. */
function rowsOf(state: MindState, snapshotId: number): Record<Table, string[]> {
  const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
  return {
    goals: sorted(state.goals.map((g) => [g.id, g.description, g.criteria, g.priority, g.status, g.parentId ?? null, snapshotId])),
    episodes: sorted(state.episodes.map((e) => [e.id, e.at, e.goalId, e.summary, e.learnings, e.tools])),
    triples: sorted(state.graph.triples.map((t) => [t.subject, t.predicate, t.object, t.confidence])),
  };
}

/** The session's rows in the query tables, in the form of {@link rowsOf}. */
async function storedRows(store: SqliteStore, session: string): Promise<Record<Table, string[]>> {
  const rows = async (sql: string, jsonColumns: string[] = []) =>
    (await store.all<Record<string, unknown>>(sql, [session]))
      .map((row) => JSON.stringify(Object.entries(row).map(([column, value]) => (jsonColumns.includes(column) ? JSON.parse(value as string) : value))))
      .sort();
  return {
    goals: await rows('SELECT id, description, criteria, priority, status, parent_id, snapshot_id FROM goals WHERE session = ?'),
    episodes: await rows('SELECT id, at, goal_id, summary, learnings, tools FROM episodes WHERE session = ?', ['learnings', 'tools']),
    triples: await rows('SELECT subject, predicate, object, confidence FROM triples WHERE session = ?'),
  };
}

// Serial: it patches QueryTables.prototype, which the other test's saves go through.
test.serial('each save refreshes only the query tables whose rows changed; the tables show the latest snapshot', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'query-tables-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'a.db');
  // Every save as queued: its id and state, and the tables its statements rewrite.
  const saves: { id: number; state: MindState; refreshed: Table[] }[] = [];
  const refresh = QueryTables.prototype.refresh;
  t.teardown(() => (QueryTables.prototype.refresh = refresh));
  QueryTables.prototype.refresh = function (id: number, state: MindState) {
    const statements = refresh.call(this, id, state);
    const refreshed = TABLES.filter((name) => statements.some(({ sql }) => sql === `DELETE FROM ${name} WHERE session = ?`));
    saves.push({ id, state: structuredClone(state), refreshed });
    return statements;
  };
  await recordSession(db, 'rec', config, STIMULI);

  t.is(saves.length, 10, 'start, eight save commands, exit');
  for (const [i, save] of saves.entries()) {
    const rows = rowsOf(save.state, save.id);
    const before = i > 0 ? rowsOf(saves[i - 1]!.state, save.id) : undefined;
    t.deepEqual(save.refreshed, TABLES.filter((table) => !before || JSON.stringify(before[table]) !== JSON.stringify(rows[table])), `snapshot ${save.id} refreshes what changed`);
  }
  for (const table of TABLES) t.true(saves.filter((s) => s.refreshed.includes(table)).length <= saves.length / 2, `${table} is mostly left alone`);
  const latest = saves.at(-1)!;
  t.true(latest.state.episodes.length > 0, 'the run made episodes');
  const store = await SqliteStore.open(db, { access: 'read' });
  try {
    t.deepEqual(await storedRows(store, 'rec'), rowsOf(latest.state, latest.id));
  } finally {
    await store.close();
  }
});

test('saves queued behind one write run only the last refresh of each table and one pruning of snapshots, and leave the store as if each had run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'query-tables-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = await SqliteStore.open(join(dir, 'a.db'));
  const ran: string[] = [];
  const run = store.run.bind(store);
  store.run = (sql, params) => {
    if (!/^(BEGIN|COMMIT|SAVEPOINT)/.test(sql)) ran.push(sql.split(' ').slice(0, 3).join(' '));
    return run(sql, params);
  };
  const sink = toSqlite(store, { batchSize: 100_000, flushMs: 60_000 });
  const tables = new QueryTables('s');
  // Twelve saves: goals change up to the tenth, triples at every odd one, episodes never.
  const stateOf = (i: number): MindState =>
    ({
      goals: Array.from({ length: Math.min(i, 10) }, (_, g) => ({ id: `goal-${g + 1}`, description: `goal ${g + 1}`, criteria: 'zzqx', priority: 128, status: 'Active' })),
      episodes: [{ id: 'episode-1', at: 1, goalId: 'goal-1', summary: 'once', learnings: ['moon'], tools: ['kg_query'] }],
      graph: { triples: Array.from({ length: Math.ceil(i / 2) }, (_, n) => ({ subject: `moon ${n}`, predicate: 'orbits', object: 'planet 3', confidence: 1 })) },
    }) as unknown as MindState;
  for (let id = 1; id <= 12; id++) {
    const state = stateOf(id);
    sink.insert('snapshots', { id, session: 's', at: id, cycle: id, signal_id: 0, reason: 'save command', state }, [...tables.refresh(id, state), pruneSnapshots('s')]);
  }
  await sink.flushed();
  t.deepEqual(ran, [
    'INSERT INTO snapshots', // the three the pruning keeps: 1, 11, 12
    'INSERT INTO snapshots',
    'INSERT INTO snapshots',
    'DELETE FROM episodes', // the first save's: no later one rewrote the episodes
    'INSERT INTO episodes',
    'DELETE FROM goals', // the tenth's
    'INSERT INTO goals',
    'DELETE FROM triples', // the eleventh's
    'INSERT INTO triples',
    'UPDATE goals SET', // the twelfth's snapshot id
    'DELETE FROM snapshots', // the last pruning
  ]);
  t.deepEqual(await storedRows(store, 's'), rowsOf(stateOf(12), 12));
  t.deepEqual((await store.all<{ id: number }>('SELECT id FROM snapshots ORDER BY id')).map((row) => row.id), [1, 11, 12]);
  await store.close();
});
