/**
 * infer_rules (adaptive): mines rules from the graph's data — `p implies q`
 * when the pairs related by p are mostly also related by q, `p inverse_of q`
 * when X p Y is mostly matched by Y q X (at least 2 examples and 60% of p's
 * triples) — and states them as triples, which reason then applies. Rules are
 * knowledge added (progress) but not facts about the goal's subject, so they
 * establish no criteria. Adaptive score with a floor, boosted while
 * undiscovered rules exist (cached per knowledge version) and when the goal's
 * wording is about rules or patterns.
 */
import { z } from 'zod';
import { isMetadataPredicate, type KnowledgeGraph } from '../knowledgeGraph.js';
import { KnowledgeCache } from '../knowledgeCache.js';
import type { Mind } from '../mind.js';
import { IMPLIES, INVERSE_OF, IS_A } from '../reasoning.js';
import { semanticSimilarity } from '../semanticProfile.js';
import type { Tool } from '../tool.js';

const Input = z.object({
  minSupport: z.number().int().min(2).default(2),
  minConfidence: z.number().gt(0).max(1).default(0.6),
  limit: z.number().int().positive().max(100).default(10),
});

export interface MinedRule {
  kind: 'implies' | 'inverse_of';
  if: string;
  then: string;
  support: number;
  confidence: number;
}

/** Predicates with more triples than this are sampled, not scanned whole. */
export const MAX_SCAN = 2_000;

const RULE_PREDICATES = new Set([IS_A, IMPLIES, INVERSE_OF]);

/** Rules the data supports that the graph does not state yet, strongest first. */
export function mineRules(graph: KnowledgeGraph, minSupport = 2, minConfidence = 0.6): MinedRule[] {
  const rules: MinedRule[] = [];
  for (const p of graph.predicates().sort()) {
    if (RULE_PREDICATES.has(p)) continue;
    const triples = graph.query({ predicate: p }).slice(0, MAX_SCAN);
    if (triples.length < minSupport) continue;
    const implied = new Map<string, number>();
    const inverse = new Map<string, number>();
    for (const t of triples) {
      for (const u of graph.query({ subject: t.subject, object: t.object })) {
        if (u.predicate !== p && !RULE_PREDICATES.has(u.predicate) && !isMetadataPredicate(u.predicate)) implied.set(u.predicate, (implied.get(u.predicate) ?? 0) + 1);
      }
      for (const u of graph.query({ subject: t.object, object: t.subject })) {
        if (!RULE_PREDICATES.has(u.predicate) && !isMetadataPredicate(u.predicate)) inverse.set(u.predicate, (inverse.get(u.predicate) ?? 0) + 1);
      }
    }
    const consider = (kind: MinedRule['kind'], counts: Map<string, number>): void => {
      for (const [q, support] of counts) {
        const confidence = Math.round((support / triples.length) * 1000) / 1000;
        if (support < minSupport || confidence < minConfidence) continue;
        const stated =
          graph.query({ subject: p, predicate: kind, object: q }).length > 0 ||
          (kind === INVERSE_OF && graph.query({ subject: q, predicate: INVERSE_OF, object: p }).length > 0);
        if (!stated) rules.push({ kind, if: p, then: q, support, confidence });
      }
    };
    consider(IMPLIES, implied);
    consider(INVERSE_OF, inverse);
  }
  return rules.sort((a, b) => b.confidence - a.confidence || b.support - a.support || (a.if < b.if ? -1 : 1));
}

const mined = new KnowledgeCache<readonly MinedRule[]>();

/** The cache key of the default thresholds, built once: decide asks for it every cycle. */
const DEFAULT_THRESHOLDS = '2 0.6';

/** {@link mineRules} over the mind's graph, cached per knowledge version (mining reads knowledge only, never metadata). Shared: read-only. */
function minedRules(mind: Mind, minSupport = 2, minConfidence = 0.6): readonly MinedRule[] {
  const key = minSupport === 2 && minConfidence === 0.6 ? DEFAULT_THRESHOLDS : `${minSupport} ${minConfidence}`;
  return mined.get(mind, key, () => mineRules(mind.graph, minSupport, minConfidence));
}

export const inferRules: Tool<z.infer<typeof Input>> = {
  name: 'infer_rules',
  description: 'Mine implication and inverse rules from the data and state them for reason to apply.',
  keywords: [
    'rule', 'rules', 'pattern', 'law', 'regularity', 'implication', 'induce', 'induction', 'generalize', 'generalise',
    'mine', 'discover', 'correlation', 'always', 'whenever', 'inverse', 'implies', 'structure', 'learn', 'abstract',
  ],
  danger: 'safe',
  capabilities: ['kg.read', 'kg.write'],
  input: Input,
  scoring: {
    kind: 'adaptive',
    floor: 0.2,
    base: ({ mind, goal }) => (minedRules(mind).length > 0 ? 0.35 : 0.15) + 0.3 * semanticSimilarity(mind, goal, inferRules),
  },
  propose() {
    return { minSupport: 2, minConfidence: 0.6, limit: 10 };
  },
  execute({ minSupport, minConfidence, limit }, { mind }) {
    const rules = minedRules(mind, minSupport, minConfidence).slice(0, limit);
    let added = 0;
    for (const rule of rules) if (mind.graph.add(rule.if, rule.kind, rule.then, rule.confidence)) added++;
    if (rules.length === 0) return { ok: true, summary: 'no new rules in the data', added: 0 };
    return {
      ok: true,
      summary: `inferred ${rules.length} rule(s): ${rules.slice(0, 3).map((r) => `${r.if} ${r.kind} ${r.then} (${r.support}, ${r.confidence})`).join('; ')}`,
      symbols: [...new Set(rules.flatMap((r) => [r.if, r.then]))],
      added,
      data: rules,
    };
  },
};
