/**
 * reason (core): forward chaining around the goal (see mind/reasoning.ts):
 * is-a transitivity, property inheritance and the user's rules (`p implies q`,
 * `p inverse_of q`), applied to the goal's symbols and their instances. The
 * conclusions enter the graph and are the facts it establishes. Scores high
 * while there is something left to conclude around the goal, low once the
 * neighbourhood is saturated (cached per goal and knowledge version).
 */
import { z } from 'zod';
import { wordingKey, type Goal } from '../goals.js';
import { symbolId } from '../knowledgeGraph.js';
import { KnowledgeCache } from '../knowledgeCache.js';
import type { Mind } from '../mind.js';
import { conclusionsAbout, IS_A, type Conclusion } from '../reasoning.js';
import type { Tool } from '../tool.js';

const Input = z.object({
  /** Entities to reason about; their instances are included. */
  about: z.array(z.string().min(1)).min(1, 'about needs at least one symbol'),
  limit: z.number().int().positive().max(200).default(32),
});

/** How many instances of each goal symbol are reasoned about. */
export const INSTANCES_PER_SYMBOL = 32;

const pendingCache = new KnowledgeCache<number>();

/** The goal's symbols and, for each, up to {@link INSTANCES_PER_SYMBOL} of its instances. */
export function reasoningScope(mind: Mind, symbols: readonly string[]): string[] {
  const scope = new Set<string>();
  for (const symbol of symbols) {
    const id = symbolId(symbol);
    scope.add(id);
    let n = 0;
    for (const t of mind.graph.query({ predicate: IS_A, object: id })) {
      if (n++ >= INSTANCES_PER_SYMBOL) break;
      scope.add(t.subject);
    }
  }
  return [...scope];
}

/** Whether anything is left to conclude around the goal (a dry run, cached per knowledge version). */
function pendingConclusions(mind: Mind, goal: Goal): number {
  return pendingCache.get(mind, wordingKey(goal), () => conclusionsAbout(mind.graph, reasoningScope(mind, mind.goalTerms(goal).symbols), 1).length);
}

export const reason: Tool<z.infer<typeof Input>> = {
  name: 'reason',
  description: 'Forward chaining around symbols: is-a transitivity, property inheritance and user rules (implies, inverse_of).',
  keywords: [
    'reason', 'infer', 'deduce', 'conclude', 'derive', 'logic', 'inherit', 'inheritance', 'transitive', 'class',
    'classify', 'category', 'kind', 'type', 'hierarchy', 'taxonomy', 'implies', 'therefore', 'because', 'why',
  ],
  danger: 'safe',
  capabilities: ['kg.read', 'kg.write'],
  input: Input,
  scoring: {
    kind: 'core',
    base: ({ mind, goal }) => (pendingConclusions(mind, goal) > 0 ? 0.65 : 0.1),
  },
  propose({ mind, goal }) {
    const { symbols } = mind.goalTerms(goal);
    return { about: symbols.length > 0 ? [...symbols] : [goal.description], limit: 32 };
  },
  execute({ about, limit }, { mind }) {
    const conclusions: Conclusion[] = conclusionsAbout(mind.graph, reasoningScope(mind, about), limit);
    let added = 0;
    for (const c of conclusions) if (mind.graph.add(c.subject, c.predicate, c.object, c.confidence)) added++;
    if (conclusions.length === 0) return { ok: true, summary: `no new conclusions about ${about.join(', ')}`, added: 0 };
    const byRule = new Map<string, number>();
    for (const c of conclusions) byRule.set(c.rule, (byRule.get(c.rule) ?? 0) + 1);
    return {
      ok: true,
      summary: `concluded ${added} fact(s) (${[...byRule].map(([r, n]) => `${n} by ${r}`).join(', ')}), e.g. ${conclusions[0]!.subject} ${conclusions[0]!.predicate} ${conclusions[0]!.object}`,
      symbols: [...new Set(conclusions.map((c) => c.subject))],
      added,
      facts: conclusions,
      data: conclusions,
    };
  },
};
