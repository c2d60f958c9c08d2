/**
 * Observe and orient (seed 001), as plain functions over the mind.
 *
 * Observe gathers the active goals by priority (the first ten, and how many
 * there are), working-memory size and recent entries, and the episodes
 * recalled for the goal, and records an Observation entry. Orient collects the goal's adjacent knowledge triples, spreads
 * activation from its symbols, takes in the recalled episodes' learnings and
 * measures memory pressure.
 */
import { learningsOf, type Episode } from './episodicMemory.js';
import { goalText, wordingKey, type Goal } from './goals.js';
import type { Activation } from './knowledgeGraph.js';
import type { Mind } from './mind.js';
import type { MemoryEntry } from './workingMemory.js';

export interface Observation {
  goal: Goal;
  /** The {@link OBSERVED_GOALS} active goals of highest priority, in order. */
  activeGoals: readonly Goal[];
  /** How many goals are active. */
  activeCount: number;
  memorySize: number;
  recent: readonly MemoryEntry[];
  recalled: readonly Episode[];
}

export interface Orientation {
  goal: Goal;
  observation: Observation;
  /** Goal symbols the graph knows. */
  symbols: readonly string[];
  adjacentTriples: number;
  activated: readonly Activation[];
  /** Symbols learnt in recalled episodes. */
  episodeKnowledge: readonly string[];
  pressure: number;
}

/** How many active goals observe reports (an agent may hold thousands). */
export const OBSERVED_GOALS = 10;
/** How many recent entries observe reports. */
export const RECENT_ENTRIES = 5;
/** How many episodes are recalled per goal. */
export const RECALL_TOP_K = 3;

export function observeGoal(mind: Mind, goal: Goal, at: number): Observation {
  const activeGoals = mind.goals.active(OBSERVED_GOALS);
  const activeCount = mind.goals.activeCount;
  const recent = mind.memory.recent(RECENT_ENTRIES);
  for (const entry of recent) mind.memory.consult(entry);
  const recalled = mind.episodes.recall(goalText(goal), RECALL_TOP_K);
  mind.remember({
    content: `observed ${activeCount} active goal(s); focus ${goal.id} "${goal.description}"; memory ${mind.memory.size}/${mind.memory.capacity}`,
    symbols: [],
    kind: 'Observation',
    at,
    relevance: 0.3,
    goalId: goal.id,
  });
  return { goal, activeGoals, activeCount, memorySize: mind.memory.size, recent, recalled };
}

const activationCache = new WeakMap<Mind, Map<string, { version: number; adjacent: number; activated: Activation[] }>>();

export function orientGoal(mind: Mind, observation: Observation): Orientation {
  const { goal } = observation;
  const { symbols } = mind.goalTerms(goal);
  let perMind = activationCache.get(mind);
  if (!perMind) activationCache.set(mind, (perMind = new Map()));
  // The goal's symbols depend on its wording and the graph only: keyed like goalTerms.
  const key = wordingKey(goal);
  let cached = perMind.get(key);
  if (!cached || cached.version !== mind.graph.version) {
    let adjacent = 0;
    for (const symbol of symbols) adjacent += mind.graph.degree(symbol);
    cached = { version: mind.graph.version, adjacent, activated: mind.graph.spread(symbols, { topK: 5 }) };
    if (perMind.size >= 1024) perMind.clear();
    perMind.set(key, cached);
  }
  return {
    goal,
    observation,
    symbols,
    adjacentTriples: cached.adjacent,
    activated: cached.activated,
    episodeKnowledge: learningsOf(observation.recalled),
    pressure: mind.memory.pressure,
  };
}
