/**
 * Episodic memory (seed 001): long-term records consolidated from
 * high-relevance working-memory entries, recalled by query (top-k).
 * All mutations are journaled.
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

export class EpisodicMemory {
  private episodes: Episode[] = [];
  private readonly terms = new Map<string, Set<string>>();
  /** Recent recall results, valid while the episode list (replaced on every change) is the same. */
  private readonly recalled = new Map<string, { episodes: readonly Episode[]; result: Episode[] }>();

  constructor(private readonly journal: Journal) {}

  get size(): number {
    return this.episodes.length;
  }

  all(): readonly Episode[] {
    return this.episodes;
  }

  add(episode: Episode): void {
    const before = this.episodes;
    this.episodes = [...before, episode];
    this.terms.set(episode.id, termsOf(episode));
    this.journal.record(() => {
      this.episodes = before;
      this.terms.delete(episode.id);
    });
  }

  /**
   * The `k` episodes sharing most terms with the query (summary, learnings and
   * tools), newest first among equals; episodes sharing nothing are not returned.
   */
  recall(query: string, k = 3): Episode[] {
    if (this.episodes.length === 0 || k <= 0) return [];
    const key = `${k}\u0000${query}`;
    const cached = this.recalled.get(key);
    if (cached && cached.episodes === this.episodes) return cached.result;
    const result = this.search(query, k);
    if (this.recalled.size >= 256) this.recalled.clear();
    this.recalled.set(key, { episodes: this.episodes, result });
    return result;
  }

  private search(query: string, k: number): Episode[] {
    const wanted = keywords(query).map(stem);
    const scored: { episode: Episode; score: number; index: number }[] = [];
    for (let i = 0; i < this.episodes.length; i++) {
      const episode = this.episodes[i]!;
      const terms = this.terms.get(episode.id)!;
      let score = 0;
      for (const w of wanted) if (terms.has(w)) score++;
      if (score > 0) scored.push({ episode, score, index: i });
    }
    return scored
      .sort((a, b) => b.score - a.score || b.index - a.index)
      .slice(0, k)
      .map((s) => s.episode);
  }

  toJSON(): Episode[] {
    return this.episodes.map((e) => ({ ...e, learnings: [...e.learnings], tools: [...e.tools] }));
  }

  load(episodes: Episode[]): void {
    this.episodes = [];
    this.terms.clear();
    for (const e of episodes) {
      const copy = { ...e, learnings: [...e.learnings], tools: [...e.tools] };
      this.episodes.push(copy);
      this.terms.set(copy.id, termsOf(copy));
    }
  }
}

function termsOf(episode: Episode): Set<string> {
  const terms = new Set<string>();
  for (const w of keywords(episode.summary)) terms.add(stem(w));
  for (const s of episode.learnings) for (const w of s.split('_')) terms.add(stem(w));
  for (const t of episode.tools) terms.add(t);
  return terms;
}
