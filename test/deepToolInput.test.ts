/**
 * A tool input nested deeper than the store can hold (SQLite's JSON functions
 * refuse more than 1000 levels) is refused where it is proposed, as a sensor
 * value is where it enters. Writing the decision event as a stand-in error
 * (sinks/eventJson.ts) was not enough: the plan kept the input among its
 * steps, so the mind's exit snapshot failed to be written ("insert into
 * snapshots: … malformed JSON"), the store could not close and the session
 * was left running.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { Mind } from '../mind/mind.js';
import type { Tool } from '../mind/tool.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { Persistence } from '../streams/session.js';

/** A value nested `levels` deep: [[[…]]]. */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

test('a tool proposing an input nested 1200 levels deep is refused at its proposal, naming why; the run and its store end as usual', async (t) => {
  const tool: Tool = {
    name: 'deep_tool',
    description: 'proposes a deep input',
    keywords: ['deep'],
    danger: 'safe',
    capabilities: [],
    input: z.object({ tree: z.unknown() }),
    scoring: { kind: 'core', base: () => 0.99 },
    propose: () => ({ tree: nested(1200) }),
    execute: () => ({ ok: true, summary: 'ran' }),
  };
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-deep-input-')), 'store.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 2 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 's1', config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 's1', mind: new Mind({ tools: [tool] }) });
  const events$ = agent.run({ inputs: [from([{ source: 't', value: { type: 'goal', description: 'Go deep', criteria: 'zzqx' } }])], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const emitted = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  const events = await emitted;
  await t.notThrowsAsync(persistence.close('done'));

  const refused = events.find((e) => e.kind === 'error' && e.tool === 'deep_tool');
  t.like(refused, { severity: 'transient' });
  t.regex((refused as { message: string }).message, /propose failed: the input must be JSON .* but it is nested more than 100 levels deep/);
  t.false(events.some((e) => e.kind === 'decision' && e.tool === 'deep_tool'), 'never decided');
  const file = new Database(db, { readonly: true });
  t.teardown(() => file.close());
  t.is((file.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n, events.length, 'every event stored');
  t.like(file.prepare('SELECT status, reason FROM sessions').get(), { status: 'ended', reason: 'done' });
  t.deepEqual(file.prepare('SELECT reason FROM snapshots ORDER BY id').all(), [{ reason: 'start' }, { reason: 'exit' }]);
});
