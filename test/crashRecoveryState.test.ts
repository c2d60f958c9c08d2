import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, Subject } from 'rxjs';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { demoGoals, demoKnowledgeFile } from '../streams/demo.js';
import type { AgentEvent } from '../streams/events.js';
import { Persistence } from '../streams/session.js';
import { resumeCrashed } from './helpers/recordSession.js';
import type { Stimulus } from '../streams/signals.js';
import { STUCK_RUN, stimuliOf } from './mindFixtures.js';

const save: Stimulus = { source: 't', value: { type: 'command', command: 'save' } };

/**
 * Records a run of `stimuli` into `db` with a `save` command after every
 * `saveEvery` cycles (4 of them), then leaves it as kill -9 would after its
 * last write: every row stored, no exit snapshot, the session still
 * `running`. Returns the recorded agent's final mind state and the loops it
 * caught.
 */
async function recordCrashedRun(db: string, config: AgentConfig, stimuli: Stimulus[], saveEvery: number): Promise<{ state: unknown; loops: number }> {
  const persistence = await Persistence.open({ db, fresh: true }, { session: 'crashed', config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 'crashed' });
  const input = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [input], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  let loops = 0;
  let saves = 0;
  let ended = false;
  events$.subscribe((event: AgentEvent) => {
    if (event.kind === 'loop') loops++;
    // Bounded: four saves, and the input ends at max cycles or once no goal is left.
    if (event.kind === 'action' && event.cycle >= saveEvery * (saves + 1) && saves < 4) {
      saves++;
      queueMicrotask(() => input.next(save));
    }
    if (!ended && event.kind === 'action' && (event.cycle >= config.maxCycles || !agent.mind.goals.hasActive())) {
      ended = true;
      queueMicrotask(() => input.complete());
    }
  });
  const done = lastValueFrom(events$);
  events$.connect();
  for (const stimulus of stimuli) input.next(stimulus);
  await done;
  await persistence.sink.flushed();
  await persistence.store.close();
  return { state: agent.mind.toJSON(), loops };
}

function tempDb(t: { teardown: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-crash-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'crash.db');
}

test('resume after kill -9 restores exactly the mind the store acknowledged: the signals re-applied after a mid-run save catch the loops the run caught (the loop detectors are saved with the mind)', async (t) => {
  const db = tempDb(t);
  const config = AgentConfig.parse({ seed: 5, heartbeatMs: 0, maxCycles: 240 });
  const recorded = await recordCrashedRun(db, config, stimuliOf(STUCK_RUN), 37);
  t.true(recorded.loops > 5, `the run caught loops (${recorded.loops})`);
  const resumed = await resumeCrashed(db, config);
  t.true(resumed.reapplied > 20, `the crashed session had signals after its last save (${resumed.reapplied})`);
  t.deepEqual(resumed.state, recorded.state);
});

test('resume after kill -9 restores exactly the mind the store acknowledged: the demo\u2019s reasoning after a mid-run save finds its conclusions in the same order (the snapshot keeps the knowledge graph in insertion order)', async (t) => {
  const db = tempDb(t);
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 60 });
  const knowledge = readFileSync(demoKnowledgeFile(), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line): Stimulus => ({ source: 'kg', value: JSON.parse(line) }));
  const goals = demoGoals().map((description): Stimulus => ({ source: 'cli', value: { type: 'goal', description } }));
  const recorded = await recordCrashedRun(db, config, [...knowledge, ...goals], 4);
  const resumed = await resumeCrashed(db, config);
  t.true(resumed.reapplied > 10, `the crashed session had signals after its last save (${resumed.reapplied})`);
  t.deepEqual(resumed.state, recorded.state);
});
