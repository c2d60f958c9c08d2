/**
 * Planning overhead: cycles per second of the default cycle (plan stage,
 * verify with the policy skill, followPlans and reflect watchers) against the
 * same agent without the plan and verify stages, and plans made per second.
 */
import { performance } from 'node:perf_hooks';
import { lastValueFrom, of } from 'rxjs';
import { Mind } from '../dist/mind/mind.js';
import { Planner } from '../dist/mind/planner.js';
import { builtinTools } from '../dist/mind/tools/index.js';
import { createAgent, type AgentOptions } from '../dist/streams/createAgent.js';
import type { BenchResult } from './run.js';

/** Goals whose criteria nothing satisfies, so every cycle works (decomposition is kept out of the way). */
const GOALS = Array.from({ length: 8 }, (_, i) => ({ source: 'bench', value: { type: 'goal', description: `find quasar ${i}`, criteria: `zzq${i}`, stallThreshold: 100_000 } }));

async function cyclesPerSecond(cycles: number, cycle?: AgentOptions['cycle']): Promise<number> {
  const agent = createAgent({ config: { maxCycles: cycles, heartbeatMs: 0, maxBacktrackAttempts: 100_000 }, ...(cycle ? { cycle } : {}) });
  const events$ = agent.run({ inputs: [of(...GOALS)] });
  const done = lastValueFrom(events$, { defaultValue: undefined });
  const start = performance.now();
  events$.connect();
  await done;
  return agent.mind.cycle / ((performance.now() - start) / 1000);
}

export default async function planning({ quick }: { quick: boolean }): Promise<BenchResult[]> {
  const cycles = quick ? 500 : 5_000;
  const planned = await cyclesPerSecond(cycles);
  const unplanned = await cyclesPerSecond(cycles, (s) => (c$) => c$.pipe(s.observe, s.orient, s.decide, s.act, s.consolidate));

  const mind = new Mind({ tools: builtinTools() });
  const planner = Planner.attach(mind);
  const goal = mind.addGoal({ description: 'find the moons of Mars and classify them' });
  const plans = quick ? 200 : 2_000;
  const start = performance.now();
  for (let i = 0; i < plans; i++) planner.makePlan(goal, i, 'bench', () => 0);
  const plansPerSecond = plans / ((performance.now() - start) / 1000);

  return [
    { bench: 'planning.cycles_with_plans', value: Math.round(planned), unit: 'cycles/s', cycles },
    { bench: 'planning.cycles_without_plan_and_verify', value: Math.round(unplanned), unit: 'cycles/s', cycles },
    { bench: 'planning.plans_made', value: Math.round(plansPerSecond), unit: 'plans/s', plans },
  ];
}
