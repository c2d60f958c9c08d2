/**
 * kg_mutate (core): adds or removes a triple. When the goal itself states
 * facts ("Remember that Pluto is a dwarf planet"), it proposes adding the first
 * one the graph lacks and scores high (a question, "What is the capital of
 * France", states no fact: see mind/sentenceFacts.ts); otherwise it scores low and proposes
 * bookkeeping: marking the goal's focus symbol as explored (`agent:explored`,
 * metadata, never counted as knowledge). A part that normalises to no symbol
 * (`"???"`) is invalid input: the attempt fails naming the part.
 */
import { z } from 'zod';
import { focusSymbol, pendingTerm } from '../goalFocus.js';
import { wordingKey, type Goal } from '../goals.js';
import { emptySymbolProblem, isMetadataPredicate, symbolId } from '../knowledgeGraph.js';
import { KnowledgeCache } from '../knowledgeCache.js';
import type { Mind } from '../mind.js';
import { sentenceFacts, type SentenceFact } from '../sentenceFacts.js';
import type { Tool } from '../tool.js';

/** A part of the triple: required, and it must name a symbol. */
const part = (name: string) =>
  z
    .string()
    .min(1, `${name} is required`)
    .superRefine((label, ctx) => {
      const problem = emptySymbolProblem(label);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const Input = z.object({
  op: z.enum(['add', 'remove']).default('add'),
  subject: part('subject'),
  predicate: part('predicate'),
  object: part('object'),
  confidence: z.number().min(0).max(1).default(1),
});

const statedCache = new KnowledgeCache<SentenceFact | undefined>();

/** The first fact the goal's text states that the graph does not hold yet (cached per knowledge version). */
function statedFact(mind: Mind, goal: Goal): SentenceFact | undefined {
  return statedCache.get(mind, wordingKey(goal), () => findStatedFact(mind, goal));
}

function findStatedFact(mind: Mind, goal: Goal): SentenceFact | undefined {
  return sentenceFacts(`${goal.description}. ${goal.criteria}`).find(
    (f) => mind.graph.query({ subject: symbolId(f.subject), predicate: symbolId(f.predicate), object: symbolId(f.object) }).length === 0,
  );
}

export const kgMutate: Tool<z.infer<typeof Input>> = {
  name: 'kg_mutate',
  description: 'Add or remove a knowledge-graph triple (facts the goal states, or bookkeeping).',
  keywords: [
    'add', 'remove', 'delete', 'assert', 'record', 'store', 'save', 'remember', 'note', 'fact', 'triple', 'relation',
    'update', 'change', 'correct', 'teach', 'tell', 'link', 'connect', 'write',
  ],
  danger: 'cautious',
  capabilities: ['kg.write'],
  input: Input,
  scoring: {
    kind: 'core',
    base: ({ mind, goal }) => (statedFact(mind, goal) ? 0.8 : 0.1),
  },
  propose({ mind, goal }) {
    const fact = statedFact(mind, goal);
    if (fact) return { op: 'add', subject: fact.subject, predicate: fact.predicate, object: fact.object, confidence: 1 };
    return { op: 'add', subject: goal.id, predicate: 'agent:explored', object: focusSymbol(mind, goal) ?? pendingTerm(mind, goal) ?? goal.id, confidence: 1 };
  },
  execute({ op, subject, predicate, object, confidence }, { mind }) {
    const knowledge = !isMetadataPredicate(predicate);
    if (op === 'remove') {
      const removed = mind.graph.remove({ subject, predicate, object });
      return { ok: true, summary: removed ? `removed ${subject} ${predicate} ${object}` : `no triple ${subject} ${predicate} ${object} to remove`, data: { removed } };
    }
    const added = mind.graph.add(subject, predicate, object, confidence);
    const fact = { subject: symbolId(subject), predicate: isMetadataPredicate(predicate) ? predicate : symbolId(predicate), object: symbolId(object) };
    return {
      ok: true,
      summary: `${added ? 'added' : 'already known:'} ${subject} ${predicate} ${object}`,
      symbols: [fact.subject, fact.object],
      added: added && knowledge ? 1 : 0,
      facts: knowledge ? [fact] : [],
      data: { added },
    };
  },
};
