import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { replaySession } from '../streams/replay.js';
import { Persistence } from '../streams/session.js';

/** Records a 20-cycle session into a fresh store file; returns the file. */
async function recordSession(dir: string): Promise<string> {
  const db = join(dir, 'a.db');
  const config = AgentConfig.parse({ seed: 3, heartbeatMs: 0, maxCycles: 20, stallThreshold: 1000 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 'rec', config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 'rec' });
  const input$ = from([{ source: 't', value: { type: 'goal', description: 'Find moons and orbits of planet 3', criteria: 'zzqx' } }]);
  const events$ = agent.run({ inputs: [input$], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const done = lastValueFrom(events$);
  events$.connect();
  await done;
  await persistence.close('done');
  return db;
}

test('an ended session replays identically; with its last events deleted it is a divergence, not "identical"', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-ended-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await recordSession(dir);
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
