/**
 * Hypervectors of graph symbols, for similarity_search: a symbol is the bundle
 * of its role–filler bindings — bind(predicate, object) for each triple it is
 * the subject of and bind(^predicate, subject) for each it is the object of —
 * so symbols with the same kinds of relations to the same things (Mars and
 * Venus: is a planet, orbits the Sun) have similar vectors. Vectors are cached
 * per symbol and recomputed only when the symbol's own triples change.
 */
import { similarity, type Hypervector, type HypervectorSpace } from './hypervector.js';
import { isMetadataPredicate, type KnowledgeGraph, type Triple } from './knowledgeGraph.js';

/** Triples followed per symbol when encoding or gathering peers. */
export const FEATURE_LIMIT = 64;
/** Candidates compared per search. */
export const CANDIDATE_LIMIT = 256;

export interface Neighbour {
  symbol: string;
  similarity: number;
}

export class SymbolVectors {
  /** Per symbol: the triples its vector was made from, and the vector. */
  private readonly cache = new Map<string, { triples: Triple[]; vector: Hypervector }>();

  constructor(private readonly space: HypervectorSpace) {}

  /** The symbol's vector (the bundle of its bindings). */
  vector(graph: KnowledgeGraph, symbol: string): Hypervector {
    // The triples themselves, not their count: a triple removed and another added leave the count as it was.
    const triples = graph.adjacent(symbol, false, FEATURE_LIMIT);
    const cached = this.cache.get(symbol);
    if (cached && sameTriples(cached.triples, triples)) return cached.vector;
    const features: Hypervector[] = [];
    for (const t of triples) {
      features.push(
        t.subject === symbol ? this.space.bind(this.space.word(t.predicate), this.space.word(t.object)) : this.space.bind(this.space.word(`^${t.predicate}`), this.space.word(t.subject)),
      );
    }
    if (features.length === 0) features.push(this.space.word(symbol));
    const vector = this.space.bundle(features);
    this.cache.set(symbol, { triples, vector });
    return vector;
  }

  /**
   * The `k` symbols most similar to `symbol`, among its peers (symbols sharing
   * a relation with it: the other subjects of its (predicate, object) pairs and
   * the other objects of its (subject, predicate) pairs).
   */
  nearest(graph: KnowledgeGraph, symbol: string, k = 5): Neighbour[] {
    const peers = new Set<string>();
    for (const t of graph.adjacent(symbol, false, FEATURE_LIMIT)) {
      const others = t.subject === symbol ? graph.query({ predicate: t.predicate, object: t.object }) : graph.query({ subject: t.subject, predicate: t.predicate });
      for (const o of others) {
        const peer = t.subject === symbol ? o.subject : o.object;
        if (peer !== symbol && !isMetadataPredicate(o.predicate)) peers.add(peer);
        if (peers.size >= CANDIDATE_LIMIT) break;
      }
      if (peers.size >= CANDIDATE_LIMIT) break;
    }
    if (peers.size === 0) return [];
    const target = this.vector(graph, symbol);
    return [...peers]
      .map((peer) => ({ symbol: peer, similarity: Math.round(similarity(target, this.vector(graph, peer)) * 1000) / 1000 }))
      .sort((a, b) => b.similarity - a.similarity || (a.symbol < b.symbol ? -1 : 1))
      .slice(0, k);
  }
}

/** Whether two lists hold the same triples (the same objects: a triple's parts never change), in the same order. */
function sameTriples(a: readonly Triple[], b: readonly Triple[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}
