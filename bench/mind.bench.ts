/**
 * Full OODA cycles per second, in memory, on the demo knowledge base scaled
 * to 10,000 triples with working memory at capacity (100 entries, filled
 * before timing; auto-consolidation off, and memory_recall consolidates only
 * when memory is completely full, freeing it to half: memory runs between half
 * and full, and `memory` reports the occupancy at the end).
 *
 * Two figures from the same run, interleaved so both see the same machine:
 * - `operators`: ticks through the real operators — feedback(observe → orient
 *   → decide → act → consolidate) with recover and expand — on a synchronous
 *   stream;
 * - `plain`: the same stage functions (observeStage, orientStage, decideStage,
 *   actStage) called in a plain loop with the same per-signal checkpoint.
 * The ratio plain/operators is the cost of the reactive plumbing (target ≤ 1.25).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { from, pipe, queueScheduler } from 'rxjs';
import { Mind, type MindState } from '../dist/mind/mind.js';
import { builtinTools } from '../dist/mind/tools/index.js';
import { act, actStage } from '../dist/operators/act.js';
import { consolidate } from '../dist/operators/consolidate.js';
import { decide, decideStage } from '../dist/operators/decide.js';
import { feedback } from '../dist/operators/feedback.js';
import { observe, observeStage } from '../dist/operators/observe.js';
import { orient, orientStage } from '../dist/operators/orient.js';
import { AgentConfig } from '../dist/streams/config.js';
import { beginCycle } from '../dist/streams/cycle.js';
import { createRuntime, type Runtime } from '../dist/streams/runtime.js';
import type { Signal } from '../dist/streams/signals.js';
import { fullGc } from './fullGc.js';
import type { BenchResult } from './run.js';

export const TRIPLES = 10_000;

const config = AgentConfig.parse({ maxCycles: Number.MAX_SAFE_INTEGER, autoConsolidate: false, consolidationPressure: 1, heartbeatMs: 0, stallThreshold: 1_000_000 });

/** The demo facts, replicated with renamed entities (`mars_2`, …) until there are `TRIPLES`. */
function scaledMind(): MindState {
  const facts = readFileSync(new URL('../demo/knowledge.ndjson', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { subject: string; predicate: string; object: string });
  const mind = new Mind({ config, tools: builtinTools() });
  for (let copy = 0; mind.graph.size < TRIPLES; copy++) {
    const suffix = copy === 0 ? '' : ` ${copy}`;
    for (const f of facts) {
      if (mind.graph.size >= TRIPLES) break;
      mind.graph.add(f.subject + suffix, f.predicate, f.object + suffix);
    }
  }
  mind.addGoal({ description: 'Find stars, classify planets, map orbits and find comets', stallThreshold: 1_000_000 });
  for (let i = 0; i < mind.memory.capacity; i++) mind.remember({ content: `note ${i}`, symbols: [], kind: 'Observation', at: 0, relevance: 0.3 });
  return mind.toJSON();
}

function freshRuntime(state: MindState): Runtime {
  const mind = Mind.fromJSON(state, { config, tools: builtinTools() });
  return createRuntime({ mind, config, scheduler: queueScheduler });
}

const tick: Signal = { type: 'tick', depth: 0, meta: { source: 'bench' }, at: 0 };

function viaOperators(runtime: Runtime, cycles: number): number {
  const ticks = new Array<Signal>(cycles).fill(tick);
  const cycleOp = pipe(observe(runtime), orient(runtime), decide(runtime), act(runtime), consolidate(runtime));
  let done = 0;
  fullGc();
  const start = performance.now();
  from(ticks)
    .pipe(feedback(runtime, cycleOp))
    .subscribe(() => done++);
  const ms = performance.now() - start;
  if (done < cycles) throw new Error(`only ${done} of ${cycles} passes finished`);
  return ms;
}

function viaPlainLoop(runtime: Runtime, cycles: number): number {
  fullGc();
  const start = performance.now();
  for (let i = 0; i < cycles; i++) {
    const cycle = beginCycle(runtime, tick);
    observeStage(runtime, cycle);
    orientStage(runtime, cycle);
    decideStage(runtime, cycle);
    if (actStage(runtime, cycle) instanceof Promise) throw new Error('the bench goal chose an asynchronous tool');
  }
  return performance.now() - start;
}

export default async function mindBench({ quick }: { quick: boolean }): Promise<BenchResult[]> {
  const state = scaledMind();
  const cycles = quick ? 5_000 : 50_000;
  const rounds = quick ? 2 : 5;
  const operatorsMs: number[] = [];
  const plainMs: number[] = [];
  let memory = 0;
  let triples = 0;
  const warm = (rt: Runtime) => viaPlainLoop(rt, 2_000);
  for (let round = 0; round < rounds; round++) {
    const a = freshRuntime(state);
    warm(a);
    operatorsMs.push(viaOperators(a, cycles));
    const b = freshRuntime(state);
    warm(b);
    plainMs.push(viaPlainLoop(b, cycles));
    memory = Math.max(memory, b.mind.memory.size);
    triples = b.mind.graph.size;
    if (a.mind.cycle !== b.mind.cycle) throw new Error(`the two runs diverged: ${a.mind.cycle} vs ${b.mind.cycle} cycles`);
  }
  const best = (xs: number[]) => Math.min(...xs);
  const operatorsRate = Math.round(cycles / (best(operatorsMs) / 1000));
  const plainRate = Math.round(cycles / (best(plainMs) / 1000));
  const detail = { cycles, rounds, triples, memory: `${memory}/${config.workingMemoryCapacity}` };
  return [
    { bench: 'mind.cycles.operators', value: operatorsRate, unit: 'cycles/s', target: '>= 50000', ...detail },
    { bench: 'mind.cycles.plain', value: plainRate, unit: 'cycles/s', ...detail },
    { bench: 'mind.cycles.ratio', value: Math.round((plainRate / operatorsRate) * 100) / 100, unit: 'plain/operators', target: '<= 1.25' },
  ];
}
