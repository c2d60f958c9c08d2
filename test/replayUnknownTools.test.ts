import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import { AgentConfig, createAgent, Persistence, replaySession, SqliteStore, type Tool } from '../streams/index.js';
import { flushSettled, goalStimulus } from '../streams/testing.js';

const beans: Tool<{ n: number }> = {
  name: 'bean_counter',
  description: 'Count the beans',
  keywords: ['count', 'beans'],
  danger: 'safe',
  capabilities: [],
  input: z.object({ n: z.number() }),
  scoring: { kind: 'core', base: ({ goal }) => (goal.description.includes('beans') ? 0.95 : 0) },
  propose: () => ({ n: 3 }),
  execute: ({ n }) => ({ ok: true, summary: `counted ${n} beans`, content: `count beans ${n}` }),
};

test('a replay without the tools of the recorded run names the tools it lacks, so the user knows to pass them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-tools-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'agent.db');
  const config = AgentConfig.parse({ maxCycles: 1, heartbeatMs: 0 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 's1', config, log: () => undefined, agent: { tools: [beans] } });
  const scheduler = new VirtualTimeScheduler();
  const agent = createAgent({ ...persistence.agentOptions({ tools: [beans] }), config: persistence.config, session: 's1', scheduler });
  const events$ = agent.run({ inputs: [from([goalStimulus('count the beans')])] });
  persistence.attach(agent, events$);
  events$.connect();
  await flushSettled(scheduler);
  await persistence.close('done');

  const store = await SqliteStore.open(db);
  t.teardown(() => store.close());
  const without = await replaySession(store, 's1');
  t.like(without, { identical: false, divergence: { unknownTools: ['bean_counter'] } });
  t.like(await replaySession(store, 's1', { tools: [beans] }), { identical: true });
});
