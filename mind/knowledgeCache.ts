/**
 * A memo for values derived from the knowledge graph, per mind and key (a goal
 * wording, a set of thresholds), valid while the graph's knowledge version is
 * unchanged. Tool scores that need a dry run (pending conclusions, gaps,
 * rules) use it so decide stays cheap from cycle to cycle. It keeps a bounded
 * number of keys: one dropped is computed again, alike.
 */
import type { Mind } from './mind.js';

/** How many keys a cache keeps per mind (it is emptied past this): a long run's goals come and go, each with its own wording. */
const KEYS_KEPT = 1024;

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
    if (!cached && entries.size >= KEYS_KEPT) entries.clear();
    entries.set(key, { version, value });
    return value;
  }
}
