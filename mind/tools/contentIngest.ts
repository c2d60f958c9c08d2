/**
 * content_ingest (semantic, cautious): reads text into the mind. Sentences of
 * the simple forms "X is a Y", "Xs are Ys" and "X has Y" become facts (see
 * mind/sentenceFacts.ts); the whole text joins the library for
 * library_search. The text is the content goals are checked against.
 */
import { z } from 'zod';
import { quotedText } from '../goalText.js';
import { symbolId } from '../knowledgeGraph.js';
import { sentenceFacts } from '../sentenceFacts.js';
import type { Tool } from '../tool.js';

const Input = z.object({
  text: z.string().trim().min(1, 'text is required'),
  source: z.string().default('input'),
});

export const contentIngest: Tool<z.infer<typeof Input>> = {
  name: 'content_ingest',
  description: 'Ingest text: simple sentences ("X is a Y", "X has Y") become facts; the text joins the library.',
  keywords: [
    'ingest', 'import', 'absorb', 'digest', 'parse', 'read', 'text', 'content', 'sentence', 'statement',
    'extract', 'facts', 'teach', 'passage', 'paragraph', 'note', 'article', 'load', 'transcribe',
  ],
  danger: 'cautious',
  capabilities: ['kg.write', 'library.write'],
  input: Input,
  scoring: { kind: 'semantic', threshold: 0.5, multiplier: 0.75 },
  propose({ goal }) {
    return { text: quotedText(goal) ?? goal.description, source: goal.id };
  },
  execute({ text, source }, { mind, now }) {
    const facts = sentenceFacts(text);
    let added = 0;
    for (const f of facts) if (mind.graph.add(f.subject, f.predicate, f.object)) added++;
    const id = mind.library.add({ id: mind.id('doc'), source, text, at: now() });
    return {
      ok: true,
      summary: `ingested ${id} (${text.length} chars): ${facts.length} fact(s), ${added} new`,
      content: text,
      symbols: [...new Set(facts.flatMap((f) => [symbolId(f.subject), symbolId(f.object)]))],
      added,
      facts: facts.map((f) => ({ subject: f.subject, predicate: f.predicate, object: f.object })),
      data: { document: id, facts: facts.length, added },
    };
  },
};
