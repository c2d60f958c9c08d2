/**
 * Forward chaining over the knowledge graph, scoped to a set of entities:
 *
 * - is-a transitivity: X is_a Y, Y is_a Z ⊢ X is_a Z;
 * - property inheritance: X is_a Y, Y p Z ⊢ X p Z (p other than is_a and the
 *   rule predicates);
 * - user rules, stated as triples between predicates:
 *   `p implies q` (X p Y ⊢ X q Y) and `p inverse_of q` (X p Y ⊢ Y q X).
 *
 * A conclusion's confidence is the product of its premises' times 0.9 per step.
 * Only conclusions the graph does not already hold are returned.
 */
import type { KnowledgeGraph, Triple } from './knowledgeGraph.js';
import { isMetadataPredicate } from './knowledgeGraph.js';

export const IS_A = 'is_a';
export const IMPLIES = 'implies';
export const INVERSE_OF = 'inverse_of';
/** Confidence kept per inference step. */
export const STEP_CONFIDENCE = 0.9;
/** How far up the is-a hierarchy chaining looks. */
export const MAX_IS_A_DEPTH = 8;

export interface Conclusion extends Triple {
  rule: 'transitivity' | 'inheritance' | 'implies' | 'inverse';
}

const RULE_PREDICATES = new Set([IS_A, IMPLIES, INVERSE_OF]);

/** Conclusions about the given entities (at most `limit`), in a deterministic order. */
export function conclusionsAbout(graph: KnowledgeGraph, entities: Iterable<string>, limit = 32): Conclusion[] {
  const out: Conclusion[] = [];
  const seen = new Set<string>();
  const conclude = (c: Conclusion): boolean => {
    const key = `${c.subject}\u0000${c.predicate}\u0000${c.object}`;
    if (seen.has(key) || c.subject === c.object || graph.query({ subject: c.subject, predicate: c.predicate, object: c.object }).length > 0) return false;
    seen.add(key);
    out.push(c);
    return out.length >= limit;
  };
  const rules = userRules(graph);
  for (const entity of entities) {
    const ancestors = ancestorsOf(graph, entity);
    for (const [ancestor, { confidence, depth }] of ancestors) {
      if (depth > 1 && conclude({ subject: entity, predicate: IS_A, object: ancestor, confidence: round(confidence * STEP_CONFIDENCE), rule: 'transitivity' })) return out;
      for (const t of graph.query({ subject: ancestor })) {
        if (RULE_PREDICATES.has(t.predicate) || isMetadataPredicate(t.predicate)) continue;
        const c = round(confidence * t.confidence * STEP_CONFIDENCE);
        if (conclude({ subject: entity, predicate: t.predicate, object: t.object, confidence: c, rule: 'inheritance' })) return out;
      }
    }
    if (rules.size === 0) continue;
    for (const t of graph.query({ subject: entity })) {
      for (const rule of rules.get(t.predicate) ?? []) {
        const c = round(t.confidence * rule.confidence * STEP_CONFIDENCE);
        const conclusion: Conclusion =
          rule.kind === 'implies'
            ? { subject: t.subject, predicate: rule.then, object: t.object, confidence: c, rule: 'implies' }
            : { subject: t.object, predicate: rule.then, object: t.subject, confidence: c, rule: 'inverse' };
        if (conclude(conclusion)) return out;
      }
    }
  }
  return out;
}

/** The is-a ancestors of an entity with the confidence of the best path and its length. */
export function ancestorsOf(graph: KnowledgeGraph, entity: string): Map<string, { confidence: number; depth: number }> {
  const found = new Map<string, { confidence: number; depth: number }>();
  let frontier: [string, number][] = [[entity, 1]];
  for (let depth = 1; depth <= MAX_IS_A_DEPTH && frontier.length > 0; depth++) {
    const next: [string, number][] = [];
    for (const [node, confidence] of frontier) {
      for (const t of graph.query({ subject: node, predicate: IS_A })) {
        if (t.object === entity || found.has(t.object)) continue;
        const c = confidence * t.confidence;
        found.set(t.object, { confidence: c, depth });
        next.push([t.object, c]);
      }
    }
    frontier = next;
  }
  return found;
}

interface UserRule {
  kind: 'implies' | 'inverse';
  then: string;
  confidence: number;
}

/** The rules stated in the graph, by the predicate they fire on. */
export function userRules(graph: KnowledgeGraph): Map<string, UserRule[]> {
  const rules = new Map<string, UserRule[]>();
  const add = (on: string, rule: UserRule): void => {
    const list = rules.get(on) ?? [];
    list.push(rule);
    rules.set(on, list);
  };
  for (const t of graph.query({ predicate: IMPLIES })) add(t.subject, { kind: 'implies', then: t.object, confidence: t.confidence });
  for (const t of graph.query({ predicate: INVERSE_OF })) {
    add(t.subject, { kind: 'inverse', then: t.object, confidence: t.confidence });
    if (t.subject !== t.object) add(t.object, { kind: 'inverse', then: t.subject, confidence: t.confidence });
  }
  return rules;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
