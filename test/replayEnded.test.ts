import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { AgentConfig } from '../streams/config.js';
import { replaySession } from '../streams/replay.js';
import { recordSession } from './helpers/recordSession.js';

/** Records a 20-cycle session into a fresh store file; returns the file. */
async function recordEndedSession(dir: string): Promise<string> {
  const db = join(dir, 'a.db');
  const config = AgentConfig.parse({ seed: 3, heartbeatMs: 0, maxCycles: 20, stallThreshold: 1000 });
  await recordSession(db, 'rec', config, [{ source: 't', value: { type: 'goal', description: 'Find moons and orbits of planet 3', criteria: 'zzqx' } }]);
  return db;
}

test('an ended session replays identically; with its last events deleted it is a divergence, not "identical"', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-ended-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await recordEndedSession(dir);
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    t.like(await replaySession(store, 'rec'), { identical: true });
    await store.run('DELETE FROM events WHERE seq > 30');
    const result = await replaySession(store, 'rec');
    t.false(result.identical);
    t.like(result, { divergence: { seq: 31, expected: '(no event)' } });
  } finally {
    await store.close();
  }
});
