/**
 * The `sqlite3` queries of docs/store.md ("Querying with the sqlite3 shell")
 * run on a store that `ooda run` wrote, holding two minds (a run and a
 * `--fresh` one), and return what their comments say they return.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';

/** Each documented query by its comment line (without `-- `). */
function documentedQueries(): Map<string, string> {
  const doc = readFileSync(new URL('../docs/store.md', import.meta.url), 'utf8');
  const section = doc.indexOf('### Querying with the `sqlite3` shell');
  const start = doc.indexOf('```sql\n', section) + '```sql\n'.length;
  const block = doc.slice(start, doc.indexOf('```\n', start));
  const queries = new Map<string, string>();
  for (const paragraph of block.trim().split(/\n\n/)) {
    const [comment, ...sql] = paragraph.split('\n');
    queries.set(comment!.replace(/^-- /, ''), sql.join('\n'));
  }
  return queries;
}

const fact = (subject: string, predicate: string, object: string) => JSON.stringify({ type: 'fact', subject, predicate, object });
const goal = (description: string) => JSON.stringify({ type: 'goal', description });

test('the documented sqlite3 queries run and answer for the latest mind, not every session the file holds', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-doc-queries-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'ooda.db');
  const run = (args: string[], input: string[]) => runCli(['run', '--db', db, '--heartbeat', '0', '--max-cycles', '6', ...args], input.join('\n') + '\n');
  // Two minds, each numbering its goals from goal-1: the first knows Mars has a moon and orbits the sun, the newer one only its moon.
  t.is((await run(['--session', 'old'], [fact('mars', 'has_moon', 'phobos'), fact('mars', 'orbits', 'sun'), goal('Find moons of Mars')])).code, 0);
  t.is((await run(['--fresh', '--session', 'new'], [fact('mars', 'has_moon', 'deimos'), goal('Find what orbits Mars')])).code, 0);

  const queries = documentedQueries();
  const file = new Database(db, { readonly: true });
  t.teardown(() => file.close());
  for (const [comment, sql] of queries) t.notThrows(() => file.prepare(sql.replace("'s-…'", "'new'")).all(), comment);

  const latest = JSON.parse((file.prepare("SELECT state FROM snapshots WHERE session = 'new' ORDER BY id DESC LIMIT 1").get() as { state: string }).state) as {
    graph: { triples: { subject: string; predicate: string; object: string; confidence: number }[] };
  };
  const known = latest.graph.triples.filter((triple) => triple.subject.startsWith('mars')).map(({ predicate, object, confidence }) => ({ predicate, object, confidence }));
  t.true(known.some((triple) => triple.object === 'deimos'), 'the latest mind knows its own fact');
  const sort = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();
  t.deepEqual(sort(file.prepare(queries.get('what the agent knows about Mars')!).all() as object[]), sort(known), 'what the latest mind knows, once each');

  // Each goal's uses of each tool, as the action events of its own mind count them.
  const actions = file.prepare("SELECT session, body->>'goalId' AS goal_id, body->>'tool' AS tool, count(*) AS uses FROM events WHERE kind = 'action' GROUP BY 1, 2, 3").all() as { session: string }[];
  t.deepEqual([...new Set(actions.map((row) => row.session))].sort(), ['new', 'old'], 'both minds acted');
  const perGoal = file.prepare(queries.get('how often each tool was used per goal, and how it went')!).all() as Record<string, unknown>[];
  t.deepEqual(sort(perGoal.map(({ session, goal_id, tool, uses }) => ({ session, goal_id, tool, uses }))), sort(actions));
});

test('the columns mean what the schema table says, on a fresh and a resumed session', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-doc-columns-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'ooda.db');
  const run = (args: string[], input: string[]) => runCli(['run', '--db', db, '--heartbeat', '0', '--max-cycles', '3', ...args], input.join('\n') + '\n');
  t.is((await run(['--session', 'first'], [fact('Mars', 'has moon', 'Phobos'), goal('Find moons of Mars')])).code, 0);
  t.is((await run(['--fresh', '--session', 'fresh'], [goal('Find moons of Venus')])).code, 0);
  t.is((await run(['--session', 'resumed'], [goal('Find moons of Jupiter')])).code, 0);

  const file = new Database(db, { readonly: true });
  t.teardown(() => file.close());
  const value = <T = unknown>(sql: string, ...params: unknown[]) => Object.values(file.prepare(sql).get(...params) as object)[0] as T;
  for (const id of ['first', 'fresh', 'resumed']) {
    t.is(value('SELECT first_seq FROM sessions WHERE id = ?', id), value('SELECT min(seq) FROM events WHERE session = ?', id), `${id}: first_seq is its first event's`);
    t.is(value('SELECT start_cycle FROM sessions WHERE id = ?', id), value('SELECT cycle FROM snapshots WHERE session = ? ORDER BY id LIMIT 1', id), `${id}: start_cycle`);
    const start = file.prepare('SELECT signal_id FROM snapshots WHERE session = ? ORDER BY id LIMIT 1').get(id) as { signal_id: number };
    t.is(start.signal_id, value<number>('SELECT coalesce(max(id), 0) FROM signals WHERE id < (SELECT min(id) FROM signals WHERE session = ?)', id), `${id}: signal_id is the store's last signal id`);
    t.is(value('SELECT count(*) FROM signals WHERE session = ? AND id <= ?', id, start.signal_id), 0, `${id}: none of its signals is in its start state`);
  }
  t.is(value("SELECT start_cycle FROM sessions WHERE id = 'resumed'"), value("SELECT cycles FROM sessions WHERE id = 'fresh'"), 'a resumed session starts at the cycle count of the one it continues');
  t.is(value("SELECT resumed_from FROM sessions WHERE id = 'resumed'"), 'fresh');
  t.deepEqual(file.prepare("SELECT subject, predicate, object FROM triples WHERE session = 'first'").all(), [{ subject: 'mars', predicate: 'has_moon', object: 'phobos' }], 'triples are in symbols');
});
