/**
 * similarity_search (core): the symbols nearest to one of the goal's symbols
 * by hypervector (see mind/symbolVectors.ts) — Mars → Venus, Earth, Mercury.
 * Resemblance is not a fact, so it establishes nothing; it widens what the
 * agent has in view (the neighbours join working memory). Scores moderately
 * when the goal's focus symbol has relations to compare, low otherwise.
 */
import { z } from 'zod';
import { focusSymbol } from '../goalFocus.js';
import { symbolId } from '../knowledgeGraph.js';
import type { Mind } from '../mind.js';
import { SymbolVectors } from '../symbolVectors.js';
import type { Tool } from '../tool.js';

const Input = z.object({
  symbol: z.string().min(1, 'symbol is required'),
  topK: z.number().int().positive().max(50).default(5),
});

const vectors = new WeakMap<Mind, SymbolVectors>();

/** The mind's symbol vectors (created on first use). */
export function symbolVectors(mind: Mind): SymbolVectors {
  let v = vectors.get(mind);
  if (!v) vectors.set(mind, (v = new SymbolVectors(mind.space)));
  return v;
}

export const similaritySearch: Tool<z.infer<typeof Input>> = {
  name: 'similarity_search',
  description: 'Find the symbols most similar to a symbol by hypervector (shared relations).',
  keywords: [
    'similar', 'like', 'resemble', 'related', 'alike', 'analogy', 'analogous', 'compare', 'comparison', 'nearest',
    'neighbour', 'neighbor', 'cluster', 'group', 'peer', 'same', 'kin', 'closest', 'vector', 'semantic',
  ],
  danger: 'safe',
  capabilities: ['kg.read'],
  input: Input,
  scoring: {
    kind: 'core',
    base: ({ mind, goal }) => {
      const symbol = focusSymbol(mind, goal);
      return symbol !== undefined && mind.graph.degree(symbol) >= 2 ? 0.45 : 0.05;
    },
  },
  propose({ mind, goal }) {
    return { symbol: focusSymbol(mind, goal) ?? goal.description, topK: 5 };
  },
  execute({ symbol, topK }, { mind }) {
    const id = symbolId(symbol);
    const nearest = symbolVectors(mind).nearest(mind.graph, id, topK);
    if (nearest.length === 0) return { ok: true, summary: `nothing to compare ${symbol} with`, symbols: [id] };
    return {
      ok: true,
      summary: `${symbol} is most like ${nearest.map((n) => `${n.symbol} (${n.similarity.toFixed(2)})`).join(', ')}`,
      symbols: [id, ...nearest.map((n) => n.symbol)],
      data: nearest,
    };
  },
};
