/**
 * kg_query (core): looks up what the graph knows about one of the goal's
 * symbols — the triples around it, or, for a symbol only used as a predicate
 * (`orbits`), the triples using it. Scores high when the graph knows little
 * around the goal's open clauses (0.85 falling to 0.40 as adjacent triples
 * reach 36); 0.1 when those clauses name no known symbol (there is nothing
 * to look up). The triples found are the facts it establishes.
 */
import { z } from 'zod';
import { focusSymbol, pendingSymbols, pendingTerm } from '../goalFocus.js';
import { symbolId, type Triple } from '../knowledgeGraph.js';
import type { Tool } from '../tool.js';

const Input = z.object({
  symbol: z.string().min(1, 'symbol is required'),
  limit: z.number().int().positive().max(500).default(25),
});

export const kgQuery: Tool<z.infer<typeof Input>> = {
  name: 'kg_query',
  description: 'Query the knowledge graph for the triples around a symbol (or using it as a predicate).',
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
    base: ({ mind, goal, adjacentTriples }) => {
      if (pendingSymbols(mind, goal).length > 0) return 0.85 - Math.min(0.45, adjacentTriples / 80);
      return 0.1;
    },
  },
  propose({ mind, goal }) {
    const symbol = focusSymbol(mind, goal) ?? pendingTerm(mind, goal) ?? goal.description;
    return { symbol, limit: 25 };
  },
  execute({ symbol, limit }, { mind }) {
    const id = symbolId(symbol);
    let triples: Triple[] = mind.graph.adjacent(id).slice(0, limit);
    let how = 'about';
    if (triples.length === 0 && mind.graph.predicateCount(id) > 0) {
      triples = mind.graph.query({ predicate: id }).slice(0, limit);
      how = 'using';
    }
    if (triples.length === 0) return { ok: true, summary: `nothing known about ${symbol}`, symbols: [id] };
    const related = new Set<string>();
    for (const t of triples) {
      if (t.subject !== id) related.add(t.subject);
      if (t.object !== id) related.add(t.object);
    }
    return {
      ok: true,
      summary: `${triples.length} fact(s) ${how} ${symbol}`,
      symbols: [id, ...related],
      facts: triples,
      data: triples,
    };
  },
};
