/**
 * Episodic memory (seed 001): long-term records consolidated from
 * high-relevance working-memory entries, recalled by query (top-k).
 * Additions are journaled; the oldest episodes past a bound are retired
 * between passes (`retireOldest`, see `Mind.checkpoint`), so a long run's
 * memory stays bounded.
 */
import { z } from 'zod';
import type { Journal } from './journal.js';
import { keywords, stem } from './text.js';

export const Episode = z.object({
  id: z.string(),
  at: z.number(),
  goalId: z.string(),
  summary: z.string(),
  /** Symbols found relevant. */
  learnings: z.array(z.string()),
  /** Tools that were used in the consolidated entries. */
  tools: z.array(z.string()),
});
export type Episode = z.infer<typeof Episode>;

/** A query's recall result, valid for the episode list it was computed on (see `recall`). */
interface Recalled {
  wanted: readonly string[];
  /** How many episodes ever stored the result covers (retired ones included), and the last of them (to notice a rollback). */
  covered: number;
  last: Episode | undefined;
  top: { episode: Episode; score: number }[];
  result: Episode[];
}

export class EpisodicMemory {
  private readonly episodes: Episode[] = [];
  /** Each episode's terms, by position. */
  private readonly terms: Set<string>[] = [];
  /** Recent recall results by k, then query; brought up to date incrementally as episodes are added. */
  private readonly recalled = new Map<number, Map<string, Recalled>>();
  /** Episodes retired so far: `episodes[i]` is the episode stored `retired + i`-th. */
  private retired = 0;

  constructor(private readonly journal: Journal) {}

  /** Episodes held (recallable). */
  get size(): number {
    return this.episodes.length;
  }

  /** Episodes ever stored, retired ones included: it grows with every episode stored, even at the bound. */
  get stored(): number {
    return this.retired + this.episodes.length;
  }

  all(): readonly Episode[] {
    return this.episodes;
  }

  add(episode: Episode): void {
    this.episodes.push(episode);
    this.terms.push(termsOf(episode));
    this.journal.record(() => {
      this.episodes.pop();
      this.terms.pop();
    });
  }

  /**
   * The `k` episodes sharing most terms with the query (summary, learnings and
   * tools), newest first among equals; episodes sharing nothing are not returned.
   * The result is shared: read-only.
   */
  recall(query: string, k = 3): readonly Episode[] {
    if (this.episodes.length === 0 || k <= 0) return [];
    let byQuery = this.recalled.get(k);
    if (!byQuery) this.recalled.set(k, (byQuery = new Map()));
    let cached = byQuery.get(query);
    // Episodes are appended (popped on rollback) and retired from the front: a result stays valid while the last episode it saw is still in place or retired.
    if (!cached || cached.covered > this.stored || (cached.covered > this.retired && this.episodes[cached.covered - 1 - this.retired] !== cached.last)) {
      if (byQuery.size >= 256) byQuery.clear();
      cached = { wanted: keywords(query).map(stem), covered: 0, last: undefined, top: [], result: [] };
      byQuery.set(query, cached);
    }
    if (cached.covered < this.stored) this.extend(cached, k);
    return cached.result;
  }

  /**
   * Retires the oldest episodes past the newest `kept`; they leave recall.
   * Not journaled: called between passes, so no rollback brings them back.
   * A recall result that ranked a retired episode is dropped (recomputed when
   * asked); the others stay valid, since the episodes they ranked remain.
   */
  retireOldest(kept: number): void {
    const count = this.episodes.length - kept;
    if (count <= 0) return;
    const gone = new Set(this.episodes.splice(0, count));
    this.terms.splice(0, count);
    this.retired += count;
    for (const byQuery of this.recalled.values()) {
      for (const [query, cached] of byQuery) if (cached.top.some((t) => gone.has(t.episode))) byQuery.delete(query);
    }
  }

  /** Scores the episodes added since the result was computed and merges them into its top `k`. */
  private extend(cached: Recalled, k: number): void {
    const { top } = cached;
    let changed = false;
    for (let i = Math.max(cached.covered - this.retired, 0); i < this.episodes.length; i++) {
      const terms = this.terms[i]!;
      let score = 0;
      for (const w of cached.wanted) if (terms.has(w)) score++;
      if (score === 0) continue;
      // Newer than every ranked episode: it goes before the first one it scores at least as well as.
      let at = 0;
      while (at < top.length && top[at]!.score > score) at++;
      if (at >= k) continue;
      top.splice(at, 0, { episode: this.episodes[i]!, score });
      if (top.length > k) top.pop();
      changed = true;
    }
    cached.covered = this.stored;
    cached.last = this.episodes[this.episodes.length - 1];
    if (changed) cached.result = top.map((t) => t.episode);
  }

  toJSON(): Episode[] {
    return this.episodes.map((e) => ({ ...e, learnings: [...e.learnings], tools: [...e.tools] }));
  }

  /** Replaces the episodes with saved ones; `retired`: how many were retired before them. */
  load(episodes: Episode[], retired: number): void {
    this.episodes.length = 0;
    this.terms.length = 0;
    this.recalled.clear();
    this.retired = retired;
    for (const e of episodes) {
      const copy = { ...e, learnings: [...e.learnings], tools: [...e.tools] };
      this.episodes.push(copy);
      this.terms.push(termsOf(copy));
    }
  }
}

const learnings = new WeakMap<readonly Episode[], readonly string[]>();

/** The learnings of some episodes (a recall result), without repeats, in order; computed once per result. Shared: read-only. */
export function learningsOf(episodes: readonly Episode[]): readonly string[] {
  let found = learnings.get(episodes);
  if (!found) learnings.set(episodes, (found = [...new Set(episodes.flatMap((e) => e.learnings))]));
  return found;
}

function termsOf(episode: Episode): Set<string> {
  const terms = new Set<string>();
  for (const w of keywords(episode.summary)) terms.add(stem(w));
  for (const s of episode.learnings) for (const w of s.split('_')) terms.add(stem(w));
  for (const t of episode.tools) terms.add(t);
  return terms;
}
