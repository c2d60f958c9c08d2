import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, Subject } from 'rxjs';
import { StoreError } from '../sinks/storeError.js';
import type { InsertTable } from '../sinks/storeRows.js';
import { heartbeat } from '../sources/heartbeat.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { Persistence } from '../streams/session.js';
import type { Stimulus } from '../streams/signals.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, or 10 s (a busy machine runs the heartbeat late), and returns whether it held. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let waited = 0; !check() && waited < 10_000; waited += 20) await wait(20);
  return check();
}

test('while the store cannot be written, auto-save queues no snapshot behind an earlier auto-save not written yet (each is the whole mind: memory grew by one mind per autoSaveMs); once it writes again, auto-save goes on', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-autosave-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = AgentConfig.parse({ heartbeatMs: 5, autoSaveMs: 10, maxCycles: 10 });
  const persistence = await Persistence.open({ db: join(dir, 'full.db'), fresh: true }, { session: 's', config, log: () => undefined });
  const snapshots: string[] = [];
  const insert = persistence.sink.insert.bind(persistence.sink);
  persistence.sink.insert = (table: InsertTable, row: never, statements?: never) => {
    if (table === 'snapshots') snapshots.push((row as { reason: string }).reason);
    insert(table, row, statements);
  };
  const write = persistence.store.write.bind(persistence.store);
  let full = false;
  persistence.store.write = (batch) => (full ? Promise.reject(new StoreError('store: COMMIT: full.db: the disk is full', 'SQLITE_FULL')) : write(batch));

  const agent = createAgent({ ...persistence.agentOptions(), config, session: 's' });
  const input = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [input], ambient: [heartbeat(config.heartbeatMs)], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const done = lastValueFrom(events$);
  events$.connect();

  const autoSaves = () => snapshots.filter((r) => r === 'auto-save').length;
  t.true(await eventually(() => autoSaves() >= 2), `auto-save runs while the store writes (${autoSaves()})`);
  const beforeFull = autoSaves();
  full = true;
  await wait(300);
  const whileFull = autoSaves() - beforeFull;
  t.true(whileFull <= 1, `at most the one auto-save made as the store failed is queued (${whileFull} in 300 ms at autoSaveMs 10)`);
  full = false;
  const afterFull = () => autoSaves() - beforeFull - whileFull;
  t.true(await eventually(() => afterFull() >= 2), `auto-save goes on once the store writes again (${afterFull()})`);

  input.complete();
  agent.stop('done');
  await done;
  await persistence.close('done');
});
