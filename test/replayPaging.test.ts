/**
 * `ooda replay` reads a session's signals and events a page at a time
 * (streams/replay.ts): a session longer than a page still replays identically,
 * a divergence in a late page is still found, and no read returns more than a
 * page of rows.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { AgentConfig } from '../streams/config.js';
import { DivergenceCheck } from '../streams/divergenceCheck.js';
import { loadRecording, replayOn, replaySession } from '../streams/replay.js';
import { saveCommand } from '../streams/saveCommand.js';
import { recordSession } from './helpers/recordSession.js';

const FACTS = 2500;

/** A goal and {@link FACTS} facts, several entering in the same millisecond, so pages split passes of one instant. */
const STIMULI = [
  { type: 'goal', description: 'Find moons and orbits of planet 3', criteria: 'zzqx' },
  ...Array.from({ length: FACTS }, (_, i) => ({ type: 'fact', subject: `moon ${i}`, predicate: 'orbits', object: 'planet 3' })),
].map((value) => ({ source: 't', value }));

test('a session of several pages of signals and events replays identically, reading at most a page at a time, and a divergence in a late page is found', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-paging-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'a.db');
  await recordSession(db, 'long', AgentConfig.parse({ seed: 7, heartbeatMs: 0, maxCycles: 60, stallThreshold: 1000 }), STIMULI);
  const store = await SqliteStore.open(db, { access: 'existing' });
  t.teardown(() => store.close());
  const count = async (table: string) => (await store.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE session = 'long'`))!.n;
  const events = await count('events');
  t.true((await count('signals')) > 2 * 1000 && events > 2 * 1000, 'more than two pages of each');
  const sameInstant = await store.get<{ n: number }>("SELECT max(n) AS n FROM (SELECT count(*) AS n FROM signals WHERE session = 'long' GROUP BY at)");
  t.true(sameInstant!.n > 1, 'signals share an instant');

  let largestRead = 0;
  const all = store.all.bind(store);
  store.all = async <T>(sql: string, params?: unknown[]) => {
    const rows = await all<T>(sql, params);
    largestRead = Math.max(largestRead, rows.length);
    return rows;
  };
  t.deepEqual(await replaySession(store, 'long'), { identical: true, session: 'long', events });
  t.true(largestRead <= 1000, `no read returned more than a page (${largestRead} rows)`);

  // Tiny pages split many passes of one instant: the replay is the same.
  const { recording } = await loadRecording(store, 'long');
  const check = new DivergenceCheck(store.eventPages({ session: 'long' }, 13), true);
  await replayOn({ ...recording, signals: store.signalPages('long', 0, 7) }, { commands: [saveCommand] }, (event) => check.push(event), () => check.settle());
  t.is(await check.result(), undefined);
  t.is(check.compared, events);

  const late = (await store.get<{ id: number }>(`SELECT id FROM signals WHERE session = 'long' AND type = 'fact' AND body->>'subject' = 'moon ${FACTS - 3}'`))!.id;
  await store.run('UPDATE signals SET body = json_set(body, \'$.object\', \'planet 9\') WHERE id = ?', [late]);
  const factEvent = (await store.get<{ seq: number }>(`SELECT seq FROM events WHERE session = 'long' AND kind = 'fact' AND body->>'subject' = 'moon ${FACTS - 3}'`))!.seq;
  const firstSeq = (await store.get<{ seq: number }>("SELECT min(seq) AS seq FROM events WHERE session = 'long'"))!.seq;
  t.true(factEvent - firstSeq >= 2 * 1000, 'past the first two pages of events');
  const result = await replaySession(store, 'long');
  t.like(result, { identical: false, divergence: { seq: factEvent } });
  if ('divergence' in result) {
    t.regex(result.divergence.expected, /"object":"planet 3"/);
    t.regex(result.divergence.got, /"object":"planet 9"/);
  }
});
