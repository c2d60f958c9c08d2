/**
 * VSA tool scoring (seed 001): the goal text and each tool's keyword profile
 * (widened by synonym expansion) are encoded as hypervectors and compared.
 *
 * The scale matters. Two unrelated binary hypervectors are ≈ 0.5 similar, and
 * a profile bundling ~40 words is only ≈ 0.56 similar to each of its own
 * words, so raw "goal bundle vs profile bundle" similarity sits in a narrow
 * band around 0.5 where seed 001's thresholds (0.50, 0.55) cannot separate
 * related from unrelated goals. The score used here is the share of the goal's
 * content words the profile recognises: a word (or its stem) is recognised
 * when its vector's similarity to the profile exceeds 0.5 by half the margin a
 * member of a bundle of that size has (≈ 6 standard deviations of chance for
 * 10,000 bits). Unrelated goals score 0, goals made of the tool's vocabulary 1,
 * "What did that paper say about gravity?" 0.5 for library_search.
 *
 * Scores are cached per goal wording and tool (intervention goals share a
 * wording), tool profiles per tool: nothing is recomputed per cycle.
 */
import { goalText, wordingKey, type Goal } from './goals.js';
import { similarity, type Hypervector, type HypervectorSpace } from './hypervector.js';
import type { Mind } from './mind.js';
import { expandSynonyms } from './synonyms.js';
import { keywords, stem } from './text.js';
import type { Tool } from './tool.js';

/** A tool's profile vector and the similarity above which a word counts as recognised. */
export interface ToolProfile {
  vector: Hypervector;
  words: number;
  cut: number;
}

interface SemanticCache {
  profiles: WeakMap<Tool, ToolProfile>;
  /** Scores per tool name, by goal wording (description and criteria): goals worded alike score alike. */
  goals: Map<string, Map<string, number>>;
}

const caches = new WeakMap<Mind, SemanticCache>();

function cacheFor(mind: Mind): SemanticCache {
  let cache = caches.get(mind);
  if (!cache) caches.set(mind, (cache = { profiles: new WeakMap(), goals: new Map() }));
  return cache;
}

/**
 * The expected similarity excess of a bundle's member over chance: for a
 * majority of n random vectors, P(bit agrees) − 0.5 ≈ 1 / √(2πn).
 */
export function memberMargin(n: number): number {
  return n <= 1 ? 0.5 : 1 / Math.sqrt(2 * Math.PI * n);
}

/** The tool's semantic profile: its keywords widened by synonyms, bundled. */
export function toolProfile(space: HypervectorSpace, tool: Pick<Tool, 'keywords'>): ToolProfile {
  const words = expandSynonyms(tool.keywords);
  const vector = space.bundle(words.map((w) => space.word(w)));
  // An even count is bundled with a tie-break vector, hence the +1.
  const n = words.length % 2 === 0 ? words.length + 1 : words.length;
  return { vector, words: words.length, cut: 0.5 + memberMargin(n) / 2 };
}

/** Whether the profile recognises a word (or its stem). */
export function recognises(space: HypervectorSpace, profile: ToolProfile, word: string): boolean {
  if (similarity(space.word(word), profile.vector) > profile.cut) return true;
  const root = stem(word);
  return root !== word && similarity(space.word(root), profile.vector) > profile.cut;
}

/** The share of the text's content words the profile recognises, in [0, 1]. */
export function profileMatch(space: HypervectorSpace, profile: ToolProfile, text: string): number {
  const content = keywords(text);
  if (content.length === 0) return 0;
  let recognised = 0;
  for (const word of content) if (recognises(space, profile, word)) recognised++;
  return recognised / content.length;
}

/**
 * The part of a goal's wording that says what to do: quoted text, backticked
 * commands and URLs are payload (what to ingest, run or fetch), not intent.
 */
export function intentText(goal: Pick<Goal, 'description' | 'criteria'>): string {
  return goalText(goal).replace(/"[^"]*"|“[^”]*”|`[^`]*`|https?:\/\/\S+/g, ' ');
}

/** How many goal wordings the score cache keeps (it is emptied past this). */
export const GOAL_SCORE_CACHE = 1024;

/** The semantic score of a tool for a goal (see the module comment), cached per goal wording and tool. */
export function semanticSimilarity(mind: Mind, goal: Goal, tool: Tool): number {
  const cache = cacheFor(mind);
  const scores = scoresFor(cache, goal);
  let score = scores.get(tool.name);
  if (score === undefined) {
    let profile = cache.profiles.get(tool);
    if (!profile) cache.profiles.set(tool, (profile = toolProfile(mind.space, tool)));
    score = profileMatch(mind.space, profile, intentText(goal));
    scores.set(tool.name, score);
  }
  return score;
}

function scoresFor(cache: SemanticCache, goal: Goal): Map<string, number> {
  const key = wordingKey(goal);
  let scores = cache.goals.get(key);
  if (!scores) {
    if (cache.goals.size >= GOAL_SCORE_CACHE) cache.goals.clear();
    cache.goals.set(key, (scores = new Map()));
  }
  return scores;
}
