import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, Subject } from 'rxjs';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { Persistence } from '../streams/session.js';
import type { Stimulus } from '../streams/signals.js';
import { STUCK_RUN, stimuliOf } from './mindFixtures.js';

const config = AgentConfig.parse({ seed: 5, heartbeatMs: 0, maxCycles: 240 });
const save: Stimulus = { source: 't', value: { type: 'command', command: 'save' } };

/**
 * Records a stuck run (loops keep being caught) with a `save` command every
 * 37 cycles (the last after cycle 148, about 90 cycles before the end) into
 * `db`, then leaves it as kill -9 would after its last write: every row
 * stored, no exit snapshot, the session still `running`. Returns the recorded
 * agent's final mind state and the loops it caught.
 */
async function recordCrashedRun(db: string): Promise<{ state: unknown; loops: number }> {
  const persistence = await Persistence.open({ db, fresh: true }, { session: 'crashed', config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 'crashed' });
  const input = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [input], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  let loops = 0;
  let saves = 0;
  events$.subscribe((event: AgentEvent) => {
    if (event.kind === 'loop') loops++;
    // Bounded: one save per 50 cycles, and the input ends at max cycles.
    if (event.kind === 'action' && event.cycle >= 37 * (saves + 1) && saves < 4) {
      saves++;
      queueMicrotask(() => input.next(save));
    }
    if (event.kind === 'action' && event.cycle >= config.maxCycles) queueMicrotask(() => input.complete());
  });
  const done = lastValueFrom(events$);
  events$.connect();
  for (const stimulus of stimuliOf(STUCK_RUN)) input.next(stimulus);
  await done;
  await persistence.sink.flushed();
  await persistence.store.close();
  return { state: agent.mind.toJSON(), loops };
}

test('resume after kill -9 restores exactly the mind the store acknowledged: the signals re-applied after a mid-run save catch the loops the run caught (the loop detectors are saved with the mind)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-crash-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'crash.db');
  const recorded = await recordCrashedRun(db);
  t.true(recorded.loops > 5, `the run caught loops (${recorded.loops})`);

  const resumed = await Persistence.open({ db, fresh: false }, { session: 'resumed', config, log: () => undefined });
  t.like(resumed.resumed, { from: 'crashed' });
  t.true(resumed.resumed!.reapplied > 20, `the crashed session had signals after its last save (${resumed.resumed!.reapplied})`);
  const agent = createAgent({ ...resumed.agentOptions(), config: resumed.config, session: 'resumed' });
  const events$ = new Subject<AgentEvent>();
  resumed.attach(agent, events$);
  const state = agent.mind.toJSON() as { goals: unknown[] };
  events$.complete();
  await resumed.close('done');
  const expected = recorded.state as { goals: unknown[] };
  t.is(state.goals.length, expected.goals.length, 'the interventions the run raised after the save are there');
  t.deepEqual(state, expected);
});
