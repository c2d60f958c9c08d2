/**
 * VSA tool scoring (seed 001): the goal text and each tool's keyword profile
 * (widened by synonym expansion) are encoded as hypervectors and compared.
 * Goal vectors and tool profiles are cached, not recomputed per cycle.
 */
import type { Goal } from './goals.js';
import { HypervectorSpace, similarity, type Hypervector } from './hypervector.js';
import type { Mind } from './mind.js';
import { expandSynonyms } from './synonyms.js';
import type { Tool } from './tool.js';

interface SemanticCache {
  space: HypervectorSpace;
  profiles: WeakMap<Tool, Hypervector>;
  goals: Map<string, { text: string; vector: Hypervector; scores: Map<string, number> }>;
}

const caches = new WeakMap<Mind, SemanticCache>();

function cacheFor(mind: Mind): SemanticCache {
  let cache = caches.get(mind);
  if (!cache) caches.set(mind, (cache = { space: new HypervectorSpace(), profiles: new WeakMap(), goals: new Map() }));
  return cache;
}

/** The tool's semantic profile: its keywords widened by synonyms, bundled. */
export function toolProfile(space: HypervectorSpace, tool: Tool): Hypervector {
  return space.bundle(expandSynonyms(tool.keywords).map((w) => space.word(w)));
}

/** Similarity between the goal's text and the tool's profile, cached per goal and tool. */
export function semanticSimilarity(mind: Mind, goal: Goal, tool: Tool): number {
  const cache = cacheFor(mind);
  const text = `${goal.description} ${goal.criteria}`;
  let entry = cache.goals.get(goal.id);
  if (!entry || entry.text !== text) {
    entry = { text, vector: cache.space.encode(text), scores: new Map() };
    cache.goals.set(goal.id, entry);
  }
  let score = entry.scores.get(tool.name);
  if (score === undefined) {
    let profile = cache.profiles.get(tool);
    if (!profile) cache.profiles.set(tool, (profile = toolProfile(cache.space, tool)));
    score = similarity(entry.vector, profile);
    entry.scores.set(tool.name, score);
  }
  return score;
}
