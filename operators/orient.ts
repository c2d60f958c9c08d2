/**
 * orient: builds context for the observed goal (seed 001): adjacent knowledge
 * triples, spreading activation from the goal's symbols, recalled episodes'
 * learnings, memory pressure. Records an `orientation`. Passes cycles without
 * an observation through untouched.
 *
 *   cycles:    --c--|
 *   orient():  --c--|   (c.orientation set)
 */
import type { OperatorFunction } from 'rxjs';
import { orientGoal } from '../mind/observation.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { stage } from './stage.js';

export function orient(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  return stage((cycle) => orientStage(runtime, cycle));
}

/** The function behind {@link orient}. */
export function orientStage(runtime: Runtime, cycle: Cycle): Cycle {
  // Oriented already (orient twice in a custom cycle): once per pass.
  if (!cycle.observation || cycle.orientation) return cycle;
  const orientation = orientGoal(runtime.mind, cycle.observation);
  cycle.orientation = orientation;
  record(runtime, cycle, 'orientation', {
    goalId: orientation.goal.id,
    adjacentTriples: orientation.adjacentTriples,
    activated: orientation.activated.map((a) => ({ symbol: a.symbol, activation: a.activation })),
    episodeKnowledge: orientation.episodeKnowledge.slice(0, 10),
    pressure: Math.round(orientation.pressure * 1000) / 1000,
  });
  return cycle;
}
