/**
 * kg_query (core): looks up what the graph knows about one of the goal's
 * symbols. Scores high when the graph knows little around the goal.
 */
import { z } from 'zod';
import type { Tool } from '../tool.js';

const Input = z.object({
  symbol: z.string().min(1, 'symbol is required'),
  limit: z.number().int().positive().max(500).default(25),
});

export const kgQuery: Tool<z.infer<typeof Input>> = {
  name: 'kg_query',
  description: 'Query the knowledge graph for the triples around a symbol.',
  keywords: [
    'query', 'knowledge', 'graph', 'fact', 'facts', 'find', 'lookup', 'search', 'what', 'which', 'list', 'know',
    'entity', 'relation', 'triple', 'property', 'about', 'explore', 'discover', 'identify',
  ],
  danger: 'safe',
  capabilities: ['kg.read'],
  input: Input,
  scoring: {
    kind: 'core',
    // High when the graph knows little around the goal; lower as knowledge accumulates.
    base: ({ adjacentTriples }) => 0.85 - Math.min(0.45, adjacentTriples / 80),
  },
  propose({ mind, goal }) {
    const { symbols } = mind.goalTerms(goal);
    const fallback = goal.description.split(/\s+/).find((w) => w.length > 2) ?? goal.description;
    const symbol = symbols.length ? symbols[goal.cyclesWorked % symbols.length]! : fallback;
    return { symbol, limit: 25 };
  },
  execute({ symbol, limit }, { mind }) {
    const id = mind.graph.symbol(symbol);
    const triples = mind.graph.adjacent(id).slice(0, limit);
    if (triples.length === 0) return { ok: true, summary: `nothing known about ${symbol}`, symbols: [id] };
    const neighbours = new Set<string>();
    for (const t of triples) neighbours.add(t.subject === id ? t.object : t.subject);
    return {
      ok: true,
      summary: `${triples.length} fact(s) about ${symbol}`,
      content: triples.map((t) => `${t.subject} ${t.predicate} ${t.object}`).join('; '),
      symbols: [id, ...neighbours],
      data: triples,
    };
  },
};
