/**
 * What a long run costs in memory: the default agent stuck on a goal it can
 * never complete (so loop interventions make a new goal every dozen cycles),
 * on virtual time, for `cycles` cycles. The heap is measured after a full
 * collection at a quarter of the run and at its end:
 * - `longRun.heapGrowth`: bytes the heap grew per cycle between the two;
 * - `longRun.snapshot`: the size of the mind's saved state (what every save
 *   writes) at the end, with the goals and episodes it holds.
 * Goals past `finishedGoalsKept` and episodes past `episodesKept` are retired.
 */
import { from } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { AgentConfig } from '../dist/streams/config.js';
import { createAgent } from '../dist/streams/createAgent.js';
import type { Stimulus } from '../dist/streams/signals.js';
import { fullGc } from './fullGc.js';
import type { BenchResult } from './run.js';

export default async function longRunBench({ quick }: { quick: boolean }): Promise<BenchResult[]> {
  const cycles = quick ? 20_000 : 200_000;
  const config = AgentConfig.parse({ seed: 7, heartbeatMs: 0, maxCycles: cycles, stallThreshold: 10_000_000 });
  const scheduler = new TestScheduler(() => undefined);
  const agent = createAgent({ config, session: 'bench', scheduler });
  const facts = Array.from({ length: 200 }, (_, i) => ({ type: 'fact', subject: `planet ${i % 40}`, predicate: i % 2 ? 'orbits' : 'has moon', object: `body ${i}` }));
  const goal = { type: 'goal', description: 'Find moons and orbits of planet 3', criteria: 'zzqx', priority: 200 };
  const events$ = agent.run({ inputs: [from([...facts, goal].map((value): Stimulus => ({ source: 'bench', value })))] });
  let quarterHeap = 0;
  let quarterCycle = 0;
  events$.subscribe((event) => {
    if (quarterCycle === 0 && event.cycle >= cycles / 4) {
      fullGc();
      quarterHeap = process.memoryUsage().heapUsed;
      quarterCycle = event.cycle;
    }
  });
  events$.connect();
  scheduler.flush();
  fullGc();
  const growth = (process.memoryUsage().heapUsed - quarterHeap) / (agent.mind.cycle - quarterCycle);
  const state = agent.mind.toJSON();
  return [
    { bench: 'longRun.heapGrowth', value: Math.round(growth), unit: 'bytes/cycle', cycles: agent.mind.cycle, from: quarterCycle },
    {
      bench: 'longRun.snapshot',
      value: JSON.stringify(state).length,
      unit: 'bytes',
      cycles: agent.mind.cycle,
      goals: state.goals.length,
      episodes: state.episodes.length,
      episodesMade: agent.mind.episodes.stored,
      goalsMade: Number(/\d+$/.exec(state.goals.at(-1)?.id ?? '0')?.[0] ?? 0),
    },
  ];
}
