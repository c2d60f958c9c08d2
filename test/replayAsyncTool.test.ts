import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concat, map, of, timer, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import { AgentConfig, createAgent, Persistence, replaySession, SqliteStore, type AgentEvent, type Tool } from '../streams/index.js';
import { flushSettled, goalStimulus } from '../streams/testing.js';

/** An async tool that waits 50 ms of scheduler time (ctx.timeout), as the README says a tool should. */
const oracle: Tool<{ ms: number }> = {
  name: 'slow_oracle',
  description: 'Ask the oracle, who answers after a while',
  keywords: ['oracle', 'prophecy'],
  danger: 'safe',
  capabilities: [],
  input: z.object({ ms: z.number() }),
  scoring: { kind: 'core', base: ({ goal }) => (goal.description.includes('oracle') ? 0.99 : 0) },
  propose: () => ({ ms: 50 }),
  async execute({ ms }, ctx) {
    await new Promise((resolve) => ctx.timeout(ms).addEventListener('abort', resolve));
    return { ok: true, summary: 'the oracle spoke', content: 'oracle prophecy spoken' };
  },
};

test('a session whose async tool settled is replayed identically, also when its next signal came after toolTimeoutMs', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-async-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'agent.db');
  const config = AgentConfig.parse({ maxCycles: 2, heartbeatMs: 0, toolTimeoutMs: 1000 });
  const options = { tools: [oracle] };
  const persistence = await Persistence.open({ db, fresh: true }, { session: 's1', config, log: () => undefined, agent: options });
  const scheduler = new VirtualTimeScheduler();
  const agent = createAgent({ ...persistence.agentOptions(options), config: persistence.config, session: 's1', scheduler });
  // The second goal comes 5 s after the first: past the tool's 1 s limit.
  const input$ = concat(of(goalStimulus('ask the oracle for a prophecy')), timer(5000, scheduler).pipe(map(() => goalStimulus('consult the oracle again'))));
  const events$ = agent.run({ inputs: [input$] });
  persistence.attach(agent, events$);
  const actions: AgentEvent[] = [];
  events$.subscribe((e) => e.kind === 'action' && actions.push(e));
  events$.connect();
  await flushSettled(scheduler);
  await persistence.close('done');
  t.like(actions, [{ tool: 'slow_oracle', status: 'ok' }, { tool: 'slow_oracle', status: 'ok' }], 'the live run: both asks answered');

  const store = await SqliteStore.open(db);
  t.teardown(() => store.close());
  t.deepEqual(await replaySession(store, 's1', options), { identical: true, session: 's1', events: 20 });
});
