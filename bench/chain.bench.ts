/**
 * chain: the RxJS cost of the cycle. Cycles/s of tick signals through
 * `feedback(observe → orient → decide → act → consolidate)` + event flattening
 * + `stamp`, beside the same stage functions called in a plain loop, on two
 * identical minds in the same run (ratio = rx / plain). Also cycles/s of the
 * whole agent (`createAgent` with its driver on the async scheduler).
 * Full: 50k cycles per figure; --quick: 10k.
 */
import { performance } from 'node:perf_hooks';
import { asyncScheduler, from, lastValueFrom, mergeMap, pipe, count as countAll, type OperatorFunction } from 'rxjs';
import { actStage, act } from '../dist/operators/act.js';
import { consolidate, consolidateStage } from '../dist/operators/consolidate.js';
import { decide, decideStage } from '../dist/operators/decide.js';
import { feedback } from '../dist/operators/feedback.js';
import { observe, observeStage } from '../dist/operators/observe.js';
import { orient, orientStage } from '../dist/operators/orient.js';
import { stamp, stampEvent } from '../dist/operators/stamp.js';
import { Mind } from '../dist/mind/mind.js';
import { builtinTools } from '../dist/mind/tools/index.js';
import { AgentConfig } from '../dist/streams/config.js';
import { createAgent } from '../dist/streams/createAgent.js';
import { beginCycle, type Cycle } from '../dist/streams/cycle.js';
import { createRuntime, type Runtime } from '../dist/streams/runtime.js';
import type { Signal } from '../dist/streams/signals.js';
import type { BenchResult } from './run.js';

const config = AgentConfig.parse({ maxCycles: 10_000_000, stallThreshold: 10_000_000, heartbeatMs: 0 });

function seededRuntime(): Runtime {
  const mind = new Mind({ config, tools: builtinTools(), seed: 7 });
  for (let i = 0; i < 200; i++) mind.graph.add(`planet ${i % 40}`, i % 2 ? 'orbits' : 'has moon', `body ${i}`);
  // Criteria nothing will ever satisfy: the goal stays active for the whole run.
  mind.addGoal({ description: 'Find moons and orbits of planet 3', criteria: 'zzqx', priority: 200 });
  return createRuntime({ mind, config, scheduler: asyncScheduler });
}

const tick: Signal = { type: 'tick', depth: 0, meta: { source: 'bench' } };

function plainLoop(runtime: Runtime, n: number): number {
  let seq = 0;
  let events = 0;
  for (let i = 0; i < n; i++) {
    const cycle = beginCycle(runtime, tick);
    observeStage(runtime, cycle);
    orientStage(runtime, cycle);
    decideStage(runtime, cycle);
    actStage(runtime, cycle);
    consolidateStage(runtime, cycle);
    for (const draft of cycle.events) if (stampEvent(draft, ++seq, 'b')) events++;
  }
  return events;
}

async function throughOperators(runtime: Runtime, n: number): Promise<number> {
  const cycleOp: OperatorFunction<Cycle, Cycle> = pipe(observe(runtime), orient(runtime), decide(runtime), act(runtime), consolidate(runtime));
  const ticks = Array.from({ length: n }, () => tick);
  return lastValueFrom(from(ticks).pipe(feedback(runtime, cycleOp), mergeMap((c) => c.events), stamp('b'), countAll()));
}

async function wholeAgent(n: number): Promise<number> {
  const runtime = seededRuntime();
  // The mind keeps its own settings (and seed); the agent takes the run's.
  const agent = createAgent({ mind: runtime.mind, config: { heartbeatMs: 0, maxCycles: n } });
  const events$ = agent.run();
  const done = lastValueFrom(events$.pipe(countAll()));
  events$.connect();
  await done;
  return agent.mind.cycle;
}

const perSecond = (n: number, ms: number) => n / (ms / 1000);

export default async function chain({ quick }: { quick: boolean }): Promise<BenchResult[]> {
  const n = quick ? 10_000 : 50_000;
  const plain: number[] = [];
  const rx: number[] = [];
  for (let round = 0; round < 3; round++) {
    const a = seededRuntime();
    let start = performance.now();
    const plainEvents = plainLoop(a, n);
    plain.push(perSecond(n, performance.now() - start));
    const b = seededRuntime();
    start = performance.now();
    const rxEvents = await throughOperators(b, n);
    rx.push(perSecond(n, performance.now() - start));
    if (rxEvents !== plainEvents) throw new Error(`the two paths differ: ${rxEvents} vs ${plainEvents} events`);
    if (a.mind.cycle !== n || b.mind.cycle !== n) throw new Error(`expected ${n} cycles, ran ${a.mind.cycle} and ${b.mind.cycle}`);
  }
  const start = performance.now();
  const cycles = await wholeAgent(n);
  if (cycles !== n) throw new Error(`the agent ran ${cycles} of ${n} cycles`);
  const agentRate = perSecond(cycles, performance.now() - start);
  const best = (xs: number[]) => Math.max(...xs);
  return [
    { bench: 'chain.operators', value: Math.round(best(rx)), unit: 'cycles/s', plainLoop: Math.round(best(plain)), ratio: +(best(rx) / best(plain)).toFixed(3), cycles: n },
    { bench: 'chain.agent', value: Math.round(agentRate), unit: 'cycles/s', cycles, note: 'createAgent + driver on asyncScheduler, events counted' },
  ];
}
