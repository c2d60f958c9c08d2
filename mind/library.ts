/**
 * The library: documents the agent has ingested (content_ingest, file_io
 * reads, http_fetch bodies), searched by library_search. A mind extension
 * (`library`): journaled, serialised and restored with the mind.
 *
 * Documents are split into passages (sentences grouped up to 400 characters).
 * A passage's score for a query combines keyword overlap (query words widened
 * by synonyms, stemmed) with hypervector similarity between the query and the
 * passage (each encoded as the bundle of its words). Passage vectors are
 * computed on first search and cached; they are not part of the state. The
 * library keeps the newest `documentsKept` documents (see `retireOldest`).
 */
import { z } from 'zod';
import { similarity, type Hypervector, type HypervectorSpace } from './hypervector.js';
import type { Journal } from './journal.js';
import type { MindExtension } from './mind.js';
import { expandSynonyms } from './synonyms.js';
import { keywords, sentences, stem } from './text.js';

export const LibraryDocument = z.object({
  id: z.string(),
  /** Where it came from: a file path, a URL, `goal-3`, … */
  source: z.string(),
  text: z.string(),
  at: z.number(),
});
export type LibraryDocument = z.infer<typeof LibraryDocument>;

export interface Passage {
  documentId: string;
  source: string;
  text: string;
  score: number;
}

interface IndexedPassage {
  documentId: string;
  source: string;
  text: string;
  terms: Set<string>;
  vector?: Hypervector;
}

/** Passages are sentences grouped up to this many characters. */
export const PASSAGE_CHARS = 400;
/** Documents longer than this are cut when stored. */
export const MAX_DOCUMENT_CHARS = 200_000;

const State = z.array(LibraryDocument);

export class Library implements MindExtension {
  readonly name = 'library';
  private documents: LibraryDocument[] = [];
  private passages: IndexedPassage[] = [];

  constructor(
    private readonly journal: Journal,
    private readonly space: HypervectorSpace,
  ) {}

  get size(): number {
    return this.documents.length;
  }

  all(): readonly LibraryDocument[] {
    return this.documents;
  }

  /**
   * Stores a document (cut to {@link MAX_DOCUMENT_CHARS}) and returns its id.
   * A document with the same source and text is already there (the same file
   * read again, unchanged): nothing is added and that one's id is returned, so
   * re-reading does not grow the library or repeat its passages in searches.
   */
  add(document: LibraryDocument): string {
    const stored = { ...document, text: document.text.slice(0, MAX_DOCUMENT_CHARS) };
    const same = this.documents.find((d) => d.source === stored.source && d.text === stored.text);
    if (same) return same.id;
    const before = { documents: this.documents, passages: this.passages };
    this.documents = [...before.documents, stored];
    this.passages = [...before.passages, ...indexPassages(stored)];
    this.journal.record(() => {
      this.documents = before.documents;
      this.passages = before.passages;
    });
    return stored.id;
  }

  /** The `k` best passages for the query, best first; passages sharing nothing are left out. */
  search(query: string, k = 5): Passage[] {
    const wanted = [...new Set(expandSynonyms(keywords(query)).map(stem))];
    if (wanted.length === 0 || this.passages.length === 0) return [];
    const queryVector = this.space.encode(wanted.join(' '));
    const scored: Passage[] = [];
    for (const passage of this.passages) {
      let shared = 0;
      for (const term of wanted) if (passage.terms.has(term)) shared++;
      if (shared === 0) continue;
      passage.vector ??= this.space.encode([...passage.terms].join(' '));
      const closeness = Math.max(0, Math.min(1, (similarity(queryVector, passage.vector) - 0.5) * 4));
      const score = 0.6 * Math.min(1, shared / Math.min(wanted.length, 3)) + 0.4 * closeness;
      scored.push({ documentId: passage.documentId, source: passage.source, text: passage.text, score: Math.round(score * 1000) / 1000 });
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, k);
  }

  /** Retires the oldest documents past `kept`, with their passages (between passes: see `Mind.checkpoint`; not journaled). */
  retireOldest(kept: number): void {
    const count = this.documents.length - kept;
    if (count <= 0) return;
    const gone = new Set(this.documents.slice(0, count).map((d) => d.id));
    this.documents = this.documents.slice(count);
    this.passages = this.passages.filter((p) => !gone.has(p.documentId));
  }

  toJSON(): LibraryDocument[] {
    return this.documents.map((d) => ({ ...d }));
  }

  load(json: unknown): void {
    this.documents = State.parse(json).map((d) => ({ ...d }));
    this.passages = this.documents.flatMap(indexPassages);
  }
}

function indexPassages(document: LibraryDocument): IndexedPassage[] {
  const out: IndexedPassage[] = [];
  let current = '';
  const flush = (): void => {
    if (current) out.push({ documentId: document.id, source: document.source, text: current, terms: new Set(keywords(current).map(stem)) });
    current = '';
  };
  for (const sentence of sentences(document.text)) {
    for (const piece of pieces(sentence)) {
      if (current && current.length + piece.length + 2 > PASSAGE_CHARS) flush();
      current = current ? `${current}. ${piece}` : piece;
    }
  }
  flush();
  return out;
}

/** A sentence in pieces of at most {@link PASSAGE_CHARS} characters, cut at a space where there is one: a longer sentence (a line without stops) is searchable to its end. */
function pieces(sentence: string): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > PASSAGE_CHARS) {
    const space = rest.lastIndexOf(' ', PASSAGE_CHARS);
    const cut = space > 0 ? space : PASSAGE_CHARS;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}
