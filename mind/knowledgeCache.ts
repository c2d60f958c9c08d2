/**
 * A memo for values derived from the knowledge graph, per mind and key (a goal
 * id, a symbol), valid while the graph's knowledge version is unchanged. Tool
 * scores that need a dry run (pending conclusions, gaps, rules) use it so
 * decide stays cheap from cycle to cycle.
 */
import type { Mind } from './mind.js';

export class KnowledgeCache<T> {
  private readonly perMind = new WeakMap<Mind, Map<string, { version: number; value: T }>>();

  /** The cached value for `key`, computed again when the knowledge has changed since. */
  get(mind: Mind, key: string, compute: () => T): T {
    let entries = this.perMind.get(mind);
    if (!entries) this.perMind.set(mind, (entries = new Map()));
    const version = mind.graph.knowledgeVersion;
    const cached = entries.get(key);
    if (cached && cached.version === version) return cached.value;
    const value = compute();
    entries.set(key, { version, value });
    return value;
  }
}
