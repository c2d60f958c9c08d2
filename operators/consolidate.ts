/**
 * consolidate: after act, when memory pressure exceeds the configured
 * threshold (seed 001: 0.8) and auto-consolidation is on, turns high-relevance
 * working-memory entries into episodes and records a `consolidation` event.
 * The `consolidate` command runs {@link consolidateNow} directly.
 *
 *   cycles:         --c--|
 *   consolidate():  --c--|   (c.events gains a consolidation when pressure was high)
 */
import type { OperatorFunction } from 'rxjs';
import { consolidate as consolidateMemory } from '../mind/consolidation.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { stage } from './stage.js';

export function consolidate(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  return stage((cycle) => consolidateStage(runtime, cycle));
}

/** The function behind {@link consolidate}. */
export function consolidateStage(runtime: Runtime, cycle: Cycle): Cycle {
  const { mind } = runtime;
  if (cycle.outcome && mind.config.autoConsolidate && mind.memory.pressure > mind.config.consolidationPressure) {
    consolidateNow(runtime, cycle, `memory pressure ${mind.memory.pressure.toFixed(2)} > ${mind.config.consolidationPressure}`);
  }
  return cycle;
}

/** Consolidates now and records the event; returns a one-line result. */
export function consolidateNow(runtime: Runtime, cycle: Cycle, reason: string): string {
  const result = consolidateMemory(runtime.mind, runtime.now());
  record(runtime, cycle, 'consolidation', { episodes: result.episodes, freed: result.freed, reason });
  return `consolidated ${result.freed} entries into ${result.episodes} episode(s)`;
}
