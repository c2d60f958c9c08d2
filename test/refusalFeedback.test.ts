/**
 * The store's refusals reach the agent through Persistence, which injects
 * each one as an `error` signal; the error event of that signal goes to the
 * store in turn. A store that refused every event (a clock giving NaN, a
 * trigger) so refused each report, reported the refusal, refused that
 * report, and so on for ever: thousands of events a second, one stderr line
 * each. Each reason of refusal now reaches the agent once.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { Persistence } from '../streams/session.js';
import type { Stimulus } from '../streams/signals.js';

/** Reports injected before the test stops passing them on: an endless loop of them ends there. */
const MAX_REPORTS = 5;

test('a store that refuses every event tells the agent once: the event of that report, refused in turn, is not reported again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-refusal-feedback-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = AgentConfig.parse({ maxCycles: 0, heartbeatMs: 0 });
  const sinkLines: string[] = [];
  const persistence = await Persistence.open({ db: join(dir, 'a.db'), fresh: true, log: (line) => sinkLines.push(line) }, { session: 's', config, log: () => undefined });
  await persistence.store.run("CREATE TRIGGER no_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'no events here'); END");
  const agent = createAgent({ ...persistence.agentOptions(), config: persistence.config, session: 's' });
  const inject = agent.inject.bind(agent);
  let reports = 0;
  agent.inject = (signal) => ++reports <= MAX_REPORTS && inject(signal);
  const input = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [input], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  events$.connect();
  input.next({ source: 'app', value: { type: 'goal', description: 'find moons' } });

  // Writes until nothing is left to write: each report's event is written (and refused) in the write after the one that reported.
  await persistence.sink.flushed();
  t.is(reports, 1, 'one report reached the agent');
  t.deepEqual(await persistence.store.all('SELECT seq FROM events'), []);
  const recorded = await persistence.store.all<{ type: string; source: string }>("SELECT type, body ->> '$.meta.source' AS source FROM signals WHERE type = 'error'");
  t.deepEqual(recorded, [{ type: 'error', source: 'store' }], 'the report entered the agent (and was recorded) once');
  t.true(sinkLines.length > 0 && sinkLines.every((line) => /no events here/.test(line)), 'the sink\u2019s lines go to the log option given, not to stderr');

  input.complete();
  agent.stop('done');
  await persistence.close('done');
});
