/**
 * Persistence.close when the exit snapshot cannot be taken (a mind extension
 * whose state does not serialise): the run's signals and events are still
 * written, the session ended and the store closed, and close rejects saying
 * which snapshot failed. It used to close the store under the queued rows,
 * losing them, while the sink retried against the closed handle forever.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import type { MindExtension } from '../mind/mind.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { Persistence } from '../streams/session.js';

/** An extension whose state stops serialising once `broken` is set. */
class Fragile implements MindExtension {
  readonly name = 'fragile';
  broken = false;
  toJSON(): unknown {
    return this.broken ? { count: 1n } : { count: 1 };
  }
  load(): void {}
}

test('an exit snapshot that cannot be taken still leaves every event stored and the store closed', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-exit-snapshot-')), 'store.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 3 });
  // A flush period longer than the test: every row is still queued when close is called.
  const persistence = await Persistence.open({ db, fresh: true, flushMs: 60_000 }, { session: 's1', config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 's1' });
  const fragile = new Fragile();
  agent.mind.registerExtension(fragile);
  const events$ = agent.run({ inputs: [from([{ source: 't', value: { type: 'goal', description: 'Find moons of Mars' } }])], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const emitted = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  const events = await emitted;
  fragile.broken = true;

  const error = await t.throwsAsync(persistence.close('done'));
  t.regex(error.message, /^session s1: the exit snapshot could not be taken \(.*BigInt.*\)/);
  t.is(persistence.sink.pending, 0, 'nothing is left queued against the closed store');

  const file = new Database(db, { readonly: true });
  try {
    t.is((file.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n, events.length);
    t.like(file.prepare('SELECT status, reason, cycles FROM sessions').get(), { status: 'ended', reason: 'done', cycles: 3 });
    t.deepEqual(file.prepare('SELECT reason FROM snapshots').all(), [{ reason: 'start' }]);
  } finally {
    file.close();
  }
});
