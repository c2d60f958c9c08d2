/**
 * Consolidation (seed 001): high-relevance working-memory entries become
 * episodes, one per goal, and leave working memory with the observations of
 * the same goals. Then, so that one consolidation relieves the pressure that
 * triggered it, the oldest entries below high relevance go too until memory is
 * at most half full. Fires automatically when pressure exceeds the configured
 * threshold (0.8), or on the `consolidate` command.
 */
import type { Mind } from './mind.js';

/** Entries at or above this relevance are consolidated. */
export const HIGH_RELEVANCE = 0.7;

/** Consolidation frees working memory down to this pressure. */
export const RELIEVED_PRESSURE = 0.5;

export interface ConsolidationResult {
  episodes: number;
  freed: number;
}

export function consolidate(mind: Mind, at: number): ConsolidationResult {
  const byGoal = new Map<string, { ids: number[]; symbols: Set<string>; tools: Set<string>; lines: string[] }>();
  for (const entry of mind.memory.all()) {
    if (entry.relevance < HIGH_RELEVANCE || !entry.goalId) continue;
    let group = byGoal.get(entry.goalId);
    if (!group) byGoal.set(entry.goalId, (group = { ids: [], symbols: new Set(), tools: new Set(), lines: [] }));
    group.ids.push(entry.id);
    for (const s of entry.symbols) group.symbols.add(s);
    const tool = /^(\w+):/.exec(entry.content)?.[1];
    if (tool && mind.tools.has(tool)) group.tools.add(tool);
    if (group.lines.length < 3) group.lines.push(entry.content);
  }
  const freedIds = new Set<number>();
  for (const [goalId, group] of byGoal) {
    const goal = mind.goals.get(goalId);
    mind.episodes.add({
      id: mind.id('episode'),
      at,
      goalId,
      summary: `${goal ? goal.description : goalId}: ${group.lines.join(' | ')}`,
      learnings: [...group.symbols].slice(0, 32),
      tools: [...group.tools],
    });
    for (const id of group.ids) freedIds.add(id);
  }
  for (const entry of mind.memory.all()) {
    if (entry.kind === 'Observation' && entry.goalId && byGoal.has(entry.goalId)) freedIds.add(entry.id);
  }
  const target = Math.floor(mind.memory.capacity * RELIEVED_PRESSURE);
  for (const entry of mind.memory.all()) {
    if (mind.memory.size - freedIds.size <= target) break;
    if (entry.relevance < HIGH_RELEVANCE) freedIds.add(entry.id);
  }
  const freed = mind.memory.remove(freedIds);
  return { episodes: byGoal.size, freed };
}
