/**
 * library_search (semantic, safe): searches the documents the agent has
 * ingested (content_ingest, file_io reads, http_fetch bodies) by keywords
 * (widened by synonyms) and hypervector similarity (see mind/library.ts). The
 * passages found are the content goals are checked against.
 */
import { z } from 'zod';
import { goalText } from '../goals.js';
import type { Tool } from '../tool.js';

const Input = z.object({
  query: z.string().trim().min(1, 'query is required'),
  topK: z.number().int().positive().max(50).default(5),
});

export const librarySearch: Tool<z.infer<typeof Input>> = {
  name: 'library_search',
  description: 'Search ingested documents (papers, notes, pages) by keywords and hypervector similarity.',
  keywords: [
    'library', 'book', 'paper', 'document', 'article', 'read', 'search', 'publication', 'reference', 'source',
    'cite', 'citation', 'passage', 'text', 'literature', 'report', 'manual', 'say', 'wrote', 'author',
  ],
  danger: 'safe',
  capabilities: ['library.read'],
  input: Input,
  scoring: { kind: 'semantic', threshold: 0.5, multiplier: 0.8 },
  propose({ goal }) {
    return { query: goalText(goal), topK: 5 };
  },
  execute({ query, topK }, { mind }) {
    const passages = mind.library.search(query, topK);
    if (passages.length === 0) return { ok: true, summary: `no passage in ${mind.library.size} document(s) matches "${query.slice(0, 80)}"` };
    const documents = new Set(passages.map((p) => p.documentId));
    return {
      ok: true,
      summary: `${passages.length} passage(s) from ${documents.size} document(s), best from ${passages[0]!.source} (${passages[0]!.score})`,
      content: passages.map((p) => p.text).join('. '),
      data: passages,
    };
  },
};
