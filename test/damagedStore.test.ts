import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { StoreError } from '../sinks/storeError.js';
import { AgentConfig } from '../streams/config.js';
import { replaySession } from '../streams/replay.js';
import { startPersistentProgram } from '../streams/persistentProgram.js';
import { events, runCli } from './helpers/cli.js';

/** Runs the program on `db` (as `ooda run --db`), resuming its latest session if any; the lines it logged. */
async function run(db: string, session: string): Promise<string[]> {
  const stdout = new PassThrough();
  stdout.resume();
  const log: string[] = [];
  try {
    const program = await startPersistentProgram(
      {
        config: AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 3 }),
        goals: ['Find moons of Mars'],
        session,
        format: 'ndjson',
        readStdin: false,
        files: [],
        vitalsMs: 0,
      },
      { db },
      { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
      (line) => log.push(line),
    );
    await program.done;
    return log;
  } catch (error) {
    (error as { log?: string[] }).log = log;
    throw error;
  }
}

/** A store holding one ended session, `s1`, then changed by `sql` (as a user would in the sqlite3 shell); its first and last snapshot ids. */
async function damagedStore(sql: string): Promise<{ db: string; first: number; last: number }> {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-damaged-')), 'store.db');
  await run(db, 's1');
  const file = new Database(db);
  const { first, last } = file.prepare("SELECT min(id) AS first, max(id) AS last FROM snapshots WHERE session = 's1'").get() as { first: number; last: number };
  file.exec(sql);
  file.close();
  return { db, first, last };
}

const cases = [
  {
    what: 'a state of a newer version',
    sql: "UPDATE snapshots SET state = json_set(state, '$.version', 99)",
    message: (db: string, id: number) => `store: ${db}: snapshot ${id} of session s1 holds a mind state of version 99, newer than this program's 1: upgrade ooda-rx`,
  },
  {
    what: 'an empty state',
    sql: "UPDATE snapshots SET state = '{}'",
    message: (db: string, id: number) =>
      `store: ${db}: snapshot ${id} of session s1 is not a valid mind state (version: Invalid input: expected 1): the file was damaged or edited; restore it from a backup, or start a new mind with --fresh`,
  },
  {
    what: 'a state that is not JSON',
    sql: "UPDATE snapshots SET state = 'not json'",
    message: (db: string, id: number) => `store: ${db}: snapshot ${id} of session s1 is not JSON: the file was damaged or edited; restore it from a backup, or start a new mind with --fresh`,
  },
];

for (const { what, sql, message } of cases) {
  test(`resuming from a snapshot with ${what} is one StoreError naming the file, the session and the snapshot, and nothing is reported as resumed`, async (t) => {
    const { db, last } = await damagedStore(sql);
    const error = await t.throwsAsync(run(db, 's2'), { instanceOf: StoreError });
    t.is(error!.message, message(db, last));
    t.deepEqual((error as { log?: string[] }).log, [], 'nothing was logged as resumed');
    const store = await SqliteStore.open(db, { access: 'read' });
    t.deepEqual((await store.sessions()).map((s) => s.id), ['s1'], 'no session was started');
    await store.close();
  });
}

for (const { what, sql, message } of cases) {
  test(`replaying a session whose first snapshot has ${what} is one StoreError naming the file, the session and the snapshot`, async (t) => {
    const { db, first } = await damagedStore(sql);
    const store = await SqliteStore.open(db, { access: 'read' });
    const error = await t.throwsAsync(replaySession(store, 's1'), { instanceOf: StoreError });
    t.is(error!.message, message(db, first));
    await store.close();
  });
}

for (const { what, sql, message } of cases) {
  test(`recalling from a latest snapshot with ${what} is one line naming the file, the session and the snapshot (exit 1)`, async (t) => {
    const { db, last } = await damagedStore(sql);
    const recalled = await runCli(['recall', '--db', db, '--query', 'moons of Mars']);
    t.is(recalled.code, 1, recalled.stderr);
    t.is(recalled.stderr, `ooda: ${message(db, last)}\n`);
  });
}

for (const [what, sql, reason] of [
  ['not JSON', "UPDATE sessions SET config = 'not json'", 'has a config that is not JSON: the file was damaged or edited'],
  ['no valid config', `UPDATE sessions SET config = json_set(config, '$.maxCycles', -3)`, 'has an invalid config (maxCycles: '],
] as const) {
  test(`replaying a session whose stored config is ${what} is one StoreError naming the file and the session`, async (t) => {
    const { db } = await damagedStore(sql);
    const store = await SqliteStore.open(db, { access: 'read' });
    const error = await t.throwsAsync(replaySession(store, 's1'), { instanceOf: StoreError });
    t.true(error!.message.startsWith(`store: ${db}: session s1 ${reason}`), error!.message);
    await store.close();
  });
}

test('an event whose stored body is not JSON is one StoreError naming the event and its session, for replay and ooda events', async (t) => {
  const { db } = await damagedStore("UPDATE events SET body = '{bad' WHERE seq = 3");
  const message = /^store: event 3 of session s1 is not JSON \(.+\): the file was damaged or edited$/;
  const store = await SqliteStore.open(db, { access: 'read' });
  try {
    t.regex((await t.throwsAsync(replaySession(store, 's1'), { instanceOf: StoreError }))!.message, message);
  } finally {
    await store.close();
  }
  const printed = await runCli(['events', '--db', db]);
  t.is(printed.code, 1, printed.stderr);
  t.is(events(printed.stdout).length, 2, 'the events before it are printed');
  t.regex(printed.stderr, /^ooda: store: event 3 of session s1 is not JSON \(.+\): the file was damaged or edited\n$/);
});

test('a store whose user_version is negative is refused naming the file and the version, by writers and readers', async (t) => {
  const { db } = await damagedStore('PRAGMA user_version = -1');
  const message = `store: open: ${db} has schema version -1 (PRAGMA user_version), which no ooda-rx writes: it is damaged or not an ooda-rx store; pass another --db`;
  for (const access of ['create', 'existing', 'read'] as const) {
    const error = await t.throwsAsync(SqliteStore.open(db, { access }), { instanceOf: StoreError }, access);
    t.is(error!.message, message, access);
  }
});

test('ooda sessions lists a session whose started_at is no date as stored, instead of failing with a RangeError', async (t) => {
  const { db } = await damagedStore("UPDATE sessions SET started_at = 1e300 WHERE id = 's1'");
  const table = await runCli(['sessions', '--db', db]);
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /^s1 +ended +1e\+300 +0\.\.3 /m);
  const json = await runCli(['sessions', '--db', db, '--json']);
  t.is(json.code, 0, json.stderr);
  t.like(JSON.parse(json.stdout) as object, { id: 's1', started: '1e+300', cycles: '0..3' });
});

test('an event whose stored body is JSON but no object is one StoreError naming the event, for replay and ooda events', async (t) => {
  for (const [body, got] of [['[1,2]', 'an array'], ['"abc"', 'a string'], ['null', 'null']] as const) {
    const { db } = await damagedStore(`UPDATE events SET body = '${body}' WHERE seq = 3`);
    const message = `store: event 3 of session s1 is not a JSON object (got ${got}): the file was damaged or edited`;
    const store = await SqliteStore.open(db, { access: 'read' });
    try {
      t.is((await t.throwsAsync(replaySession(store, 's1'), { instanceOf: StoreError }))!.message, message, body);
    } finally {
      await store.close();
    }
    const printed = await runCli(['events', '--db', db]);
    t.is(printed.code, 1, printed.stderr);
    t.is(events(printed.stdout).length, 2, 'the events before it are printed');
    t.is(printed.stderr, `ooda: ${message}\n`, body);
  }
});

test('ooda events prints an event with its stored header columns, not header fields an edited body holds', async (t) => {
  const { db } = await damagedStore(`UPDATE events SET body = json_set(body, '$.seq', 999, '$.kind', 'evil', '$.session', 'other') WHERE seq = 3`);
  const printed = await runCli(['events', '--db', db, '--limit', '3']);
  t.is(printed.code, 0, printed.stderr);
  const third = events(printed.stdout)[2]!;
  t.like(third, { seq: 3, session: 's1' });
  t.not(third.kind, 'evil');
  t.deepEqual(Object.keys(third).slice(0, 5), ['kind', 'seq', 'session', 'cycle', 'at']);
});

test('replaying a session whose start snapshot was deleted by hand is one StoreError saying so, not a divergence at its first event', async (t) => {
  const { db, first, last } = await damagedStore("DELETE FROM snapshots WHERE reason = 'start'");
  t.not(first, last);
  const store = await SqliteStore.open(db, { access: 'read' });
  try {
    const error = await t.throwsAsync(replaySession(store, 's1'), { instanceOf: StoreError });
    t.is(error!.message, `store: ${db}: session s1 has lost the snapshot it started from (the first it keeps, snapshot ${last}, is its exit at cycle 3): it cannot be replayed`);
  } finally {
    await store.close();
  }
  const replayed = await runCli(['replay', '--db', db]);
  t.is(replayed.code, 1, replayed.stderr);
  t.is(replayed.stdout, '');
  t.regex(replayed.stderr, /^ooda: store: .* has lost the snapshot it started from/);
});
