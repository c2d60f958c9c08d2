/**
 * observe: takes the signal in (see intake) and, when the signal runs a cycle
 * (a tick, a follow-up or a retry) and an active goal exists and the agent is
 * not paused, observes the world for the highest-priority goal (seed 001):
 * active goals, working memory, recalled episodes. Records an `observation`
 * (with the graph's fact count: tools add facts without `fact` events).
 *
 *   cycles:     --c--|
 *   observe():  --c--|   (c.goal and c.observation set when a cycle runs)
 */
import type { OperatorFunction } from 'rxjs';
import { observeGoal } from '../mind/observation.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { CYCLE_SIGNAL_TYPES } from '../streams/signals.js';
import { intake } from './intake.js';
import { stage } from './stage.js';

export function observe(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  return stage((cycle) => observeStage(runtime, cycle));
}

/** The function behind {@link observe}, for plain-loop use. */
export function observeStage(runtime: Runtime, cycle: Cycle): Cycle {
  intake(runtime, cycle);
  const { mind } = runtime;
  // Observed already (observe twice in a custom cycle): once per pass.
  if (cycle.observation || !CYCLE_SIGNAL_TYPES.has(cycle.signal.type) || mind.paused || mind.cycle >= runtime.config.maxCycles) return cycle;
  const goal = mind.goals.focus();
  if (!goal) return cycle;
  const observation = observeGoal(mind, goal, runtime.now());
  cycle.goal = goal;
  cycle.observation = observation;
  record(runtime, cycle, 'observation', {
    goalId: goal.id,
    activeGoals: observation.activeGoals.map((g) => ({ goalId: g.id, priority: g.priority })),
    activeCount: observation.activeCount,
    memorySize: observation.memorySize,
    facts: mind.graph.knowledgeSize,
    recent: observation.recent.map((e) => e.content.slice(0, 120)),
    recalled: observation.recalled.map((e) => e.id),
  });
  return cycle;
}
