/**
 * Seed 002's five planning strategies and the tool families they draw on.
 *
 * The strategy for a goal is the pattern whose keyword hypervector is most
 * similar to the goal's text (description + criteria). Every tool belongs to
 * one family: the built-ins by name, any other tool by the same hypervector
 * similarity between its keyword profile and the patterns.
 */
import { goalText, type Goal } from './goals.js';
import { HypervectorSpace, similarity, type Hypervector } from './hypervector.js';
import { toolProfile } from './semanticProfile.js';
import { expandSynonyms } from './synonyms.js';
import type { Tool } from './tool.js';

export type StrategyName = 'Knowledge' | 'Reasoning' | 'Creation' | 'External' | 'Similarity';

/** The strategy patterns and their keywords (seed 002's table). */
export const STRATEGY_PATTERNS: readonly { name: StrategyName; keywords: readonly string[] }[] = [
  { name: 'Knowledge', keywords: ['find', 'query', 'search', 'discover', 'explore', 'list', 'identify'] },
  { name: 'Reasoning', keywords: ['reason', 'infer', 'deduce', 'classify', 'analyze', 'why'] },
  { name: 'Creation', keywords: ['create', 'add', 'build', 'connect', 'link', 'store', 'write'] },
  { name: 'External', keywords: ['file', 'http', 'command', 'shell', 'fetch', 'download'] },
  { name: 'Similarity', keywords: ['similar', 'like', 'related', 'compare', 'cluster'] },
];

/**
 * A goal whose best similarity stays below this is matched by no pattern
 * (unrelated binary hypervectors score about 0.5) and gets the Knowledge strategy.
 */
export const STRATEGY_FLOOR = 0.52;

/** The family of each built-in tool; other tools are classified by similarity. */
export const BUILTIN_FAMILIES: Readonly<Record<string, StrategyName>> = {
  kg_query: 'Knowledge',
  memory_recall: 'Knowledge',
  library_search: 'Knowledge',
  user_interact: 'Knowledge',
  reason: 'Reasoning',
  infer_rules: 'Reasoning',
  gap_analysis: 'Reasoning',
  kg_mutate: 'Creation',
  file_io: 'External',
  http_fetch: 'External',
  shell_exec: 'External',
  content_ingest: 'External',
  similarity_search: 'Similarity',
};

/** Families that gather knowledge (explored first on even attempts) and those that reason over it. */
export const GATHERING: ReadonlySet<StrategyName> = new Set(['Knowledge', 'External', 'Similarity']);

/** Which families a plan of each strategy draws on, primary first. */
export const STRATEGY_FAMILIES: Readonly<Record<StrategyName, readonly StrategyName[]>> = {
  Knowledge: ['Knowledge', 'Similarity', 'Reasoning'],
  Reasoning: ['Reasoning', 'Knowledge'],
  Creation: ['Creation', 'Knowledge', 'Reasoning'],
  External: ['External', 'Knowledge', 'Reasoning'],
  Similarity: ['Similarity', 'Knowledge', 'Reasoning'],
};

/** How many goal texts the matcher keeps vectors for. */
export const GOAL_CACHE = 256;

/** Strategy scoring in one hypervector space, caching the pattern vectors. */
export class StrategyMatcher {
  private readonly patterns: { name: StrategyName; vector: Hypervector }[];
  private readonly families = new WeakMap<Tool, StrategyName>();
  private readonly profiles = new WeakMap<Tool, Hypervector>();
  private readonly goals = new Map<string, Hypervector>();
  /** Tool relevances by goal vector, then tool: plans are made again and again for the same goal. */
  private readonly relevances = new WeakMap<Hypervector, Map<Tool, number>>();
  private readonly strategies = new Map<string, { name: StrategyName; similarity: number }>();

  constructor(readonly space: HypervectorSpace = new HypervectorSpace()) {
    this.patterns = STRATEGY_PATTERNS.map((p) => {
      // An even bundle carries the space's shared tie-break vector, which would make every goal with an
      // even number of words look similar to it; the strategy's own name keeps the count odd.
      const words = expandSynonyms(p.keywords);
      if (words.length % 2 === 0) words.push(p.name.toLowerCase());
      return { name: p.name, vector: space.bundle(words.map((w) => space.word(w))) };
    });
  }

  /** Similarity of the goal's text to each pattern, in table order. */
  scores(goal: Pick<Goal, 'description' | 'criteria'>): { name: StrategyName; similarity: number }[] {
    const vector = this.goalVector(goal);
    return this.patterns.map((p) => ({ name: p.name, similarity: similarity(vector, p.vector) }));
  }

  /** The strategy for a goal: the most similar pattern, or Knowledge when none stands out (cached per goal text). */
  strategyFor(goal: Pick<Goal, 'description' | 'criteria'>): { name: StrategyName; similarity: number } {
    const text = goalText(goal);
    let strategy = this.strategies.get(text);
    if (!strategy) {
      let best = { name: 'Knowledge' as StrategyName, similarity: 0 };
      for (const score of this.scores(goal)) if (score.similarity > best.similarity) best = score;
      strategy = best.similarity >= STRATEGY_FLOOR ? best : { name: 'Knowledge', similarity: best.similarity };
      if (this.strategies.size >= GOAL_CACHE) this.strategies.clear();
      this.strategies.set(text, strategy);
    }
    return strategy;
  }

  /** The family a tool belongs to. */
  familyOf(tool: Tool): StrategyName {
    // Own keys only: a tool named `constructor` is no built-in.
    const known = Object.hasOwn(BUILTIN_FAMILIES, tool.name) ? BUILTIN_FAMILIES[tool.name] : undefined;
    if (known) return known;
    let family = this.families.get(tool);
    if (!family) {
      const profile = this.profile(tool);
      let best = -1;
      for (const p of this.patterns) {
        const s = similarity(profile, p.vector);
        if (s > best) [best, family] = [s, p.name];
      }
      this.families.set(tool, family!);
    }
    return family!;
  }

  /** How well a tool's profile matches the goal's text (orders tools within a family). */
  relevance(goal: Pick<Goal, 'description' | 'criteria'>, tool: Tool): number {
    const vector = this.goalVector(goal);
    let byTool = this.relevances.get(vector);
    if (!byTool) this.relevances.set(vector, (byTool = new Map()));
    let found = byTool.get(tool);
    if (found === undefined) byTool.set(tool, (found = similarity(vector, this.profile(tool))));
    return found;
  }

  private profile(tool: Tool): Hypervector {
    let profile = this.profiles.get(tool);
    if (!profile) this.profiles.set(tool, (profile = toolProfile(this.space, tool).vector));
    return profile;
  }

  /** The goal text's vector, cached (the cache is emptied past {@link GOAL_CACHE} texts). */
  private goalVector(goal: Pick<Goal, 'description' | 'criteria'>): Hypervector {
    const text = goalText(goal);
    let vector = this.goals.get(text);
    if (!vector) {
      if (this.goals.size >= GOAL_CACHE) this.goals.clear();
      this.goals.set(text, (vector = this.space.encode(text)));
    }
    return vector;
  }
}
