/**
 * gap_analysis (adaptive): entities missing predicates their peers have. For
 * each class around the goal (a goal symbol with instances, or the class a goal
 * symbol is an instance of), it finds the predicates at least half of the
 * class's instances use and lists the instances that lack them ("penguin lacks
 * can (5 of 7 bird have it)"). Gaps are questions, not facts: they
 * establish nothing. Adaptive score with a floor, boosted when the goal has
 * gaps and when its wording is about gaps.
 */
import { z } from 'zod';
import { wordingKey, type Goal } from '../goals.js';
import { symbolId, type KnowledgeGraph } from '../knowledgeGraph.js';
import { KnowledgeCache } from '../knowledgeCache.js';
import type { Mind } from '../mind.js';
import { IMPLIES, INVERSE_OF, IS_A } from '../reasoning.js';
import { semanticSimilarity } from '../semanticProfile.js';
import type { Tool } from '../tool.js';

const Input = z.object({
  about: z.array(z.string().min(1)).min(1, 'about needs at least one symbol'),
  limit: z.number().int().positive().max(200).default(20),
});

export interface Gap {
  entity: string;
  missing: string;
  peerClass: string;
  /** Instances of the class that have the predicate, and how many instances there are. */
  have: number;
  of: number;
}

/** A class needs this many instances before its gaps mean anything. */
export const MIN_PEERS = 3;
/** A predicate is expected when at least this share of the peers use it. */
export const EXPECTED_SHARE = 0.5;
/** Instances examined per class. */
export const MAX_PEERS = 200;

const SKIP = new Set([IS_A, IMPLIES, INVERSE_OF]);

/** The gaps among the peers of the given symbols, most expected first. */
export function findGaps(graph: KnowledgeGraph, about: readonly string[], limit = 20): Gap[] {
  const classes = new Set<string>();
  for (const raw of about) {
    const symbol = symbolId(raw);
    if (graph.query({ predicate: IS_A, object: symbol }).length >= MIN_PEERS) classes.add(symbol);
    for (const t of graph.query({ subject: symbol, predicate: IS_A })) classes.add(t.object);
  }
  const gaps: Gap[] = [];
  for (const peerClass of classes) {
    const instances = graph.query({ predicate: IS_A, object: peerClass }).slice(0, MAX_PEERS).map((t) => t.subject);
    if (instances.length < MIN_PEERS) continue;
    const usedBy = new Map<string, Set<string>>();
    for (const instance of instances) {
      for (const t of graph.query({ subject: instance })) {
        if (SKIP.has(t.predicate) || t.predicate.startsWith('agent:')) continue;
        let users = usedBy.get(t.predicate);
        if (!users) usedBy.set(t.predicate, (users = new Set()));
        users.add(instance);
      }
    }
    for (const [predicate, users] of usedBy) {
      if (users.size < EXPECTED_SHARE * instances.length || users.size === instances.length) continue;
      for (const instance of instances) {
        if (!users.has(instance)) gaps.push({ entity: instance, missing: predicate, peerClass, have: users.size, of: instances.length });
      }
    }
  }
  return gaps
    .sort((a, b) => b.have / b.of - a.have / a.of || (a.entity < b.entity ? -1 : a.entity > b.entity ? 1 : a.missing < b.missing ? -1 : 1))
    .slice(0, limit);
}

const gapCache = new KnowledgeCache<number>();
const foundGaps = new KnowledgeCache<Gap[]>();

function gapCount(mind: Mind, goal: Goal): number {
  return gapCache.get(mind, wordingKey(goal), () => findGaps(mind.graph, mind.goalTerms(goal).symbols, 1).length);
}

export const gapAnalysis: Tool<z.infer<typeof Input>> = {
  name: 'gap_analysis',
  description: 'Find entities missing predicates their peers (instances of the same class) have.',
  keywords: [
    'gap', 'missing', 'incomplete', 'absent', 'lacking', 'unknown', 'hole', 'coverage', 'complete', 'completeness',
    'peer', 'compare', 'expected', 'property', 'attribute', 'audit', 'check', 'consistency', 'survey', 'which',
  ],
  danger: 'safe',
  capabilities: ['kg.read'],
  input: Input,
  scoring: {
    kind: 'adaptive',
    floor: 0.2,
    base: (ctx) => (gapCount(ctx.mind, ctx.goal) > 0 ? 0.35 : 0.15) + 0.3 * semanticSimilarity(ctx.mind, ctx.goal, gapAnalysis),
  },
  propose({ mind, goal }) {
    const { symbols } = mind.goalTerms(goal);
    return { about: symbols.length > 0 ? [...symbols] : [goal.description], limit: 20 };
  },
  execute({ about, limit }, { mind }) {
    // Shared between runs while the knowledge is unchanged: read-only.
    const gaps = foundGaps.get(mind, `${limit}\u0000${about.join('\u0000')}`, () => findGaps(mind.graph, about, limit));
    if (gaps.length === 0) return { ok: true, summary: `no gaps among the peers of ${about.join(', ')}` };
    const shown = gaps.slice(0, 3).map((g) => `${g.entity} lacks ${g.missing} (${g.have} of ${g.of} ${g.peerClass} have it)`);
    return {
      ok: true,
      summary: `${gaps.length} gap(s): ${shown.join('; ')}`,
      symbols: [...new Set(gaps.map((g) => g.entity))],
      data: gaps,
    };
  },
};
