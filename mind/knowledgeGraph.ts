/**
 * The knowledge graph: symbols and (subject, predicate, object, confidence)
 * triples, indexed by subject, predicate and object. Symbols are named by their
 * normalised label (`"Red Planet"` → `red_planet`). Metadata predicates
 * (`agent:*`) describe the agent's own bookkeeping and are kept apart from
 * knowledge when goals are evaluated. All mutations are journaled.
 */
import { z } from 'zod';
import type { Journal } from './journal.js';
import { tripleProblem } from './tripleArguments.js';

export const Triple = z.object({
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  confidence: z.number().min(0).max(1),
});
export type Triple = z.infer<typeof Triple>;

export interface TriplePattern {
  subject?: string;
  predicate?: string;
  object?: string;
}

export interface Activation {
  symbol: string;
  activation: number;
}

/**
 * Runs of characters a symbol does not keep: anything but a letter, a digit,
 * `:`, `_`, `+`, `#`, `-` or `.`, and a `.` that starts no word (not before a
 * letter or digit, or after a letter, digit, `+`, `#` or `.`).
 */
const SYMBOL_GAPS = /(?:[^\p{L}\p{N}:_+#.-]|\.(?![\p{L}\p{N}])|(?<=[\p{L}\p{N}+#.])\.)+/gu;
const EDGE_UNDERSCORES = /^_+|_+$/g;

/**
 * Normalises a label to a symbol id: lower case, words joined by `_`
 * (`"Red  Planet"` → `red_planet`). It follows the word rule of text.ts:
 * besides letters and digits it keeps `:`, `_`, `-`, the meaning-bearing `+`
 * and `#`, and a `.` that starts a word, so `C`, `C++`, `C#` and `.NET` /
 * `NET` are distinct symbols, while `"Mars."`, `"Node.js"` and `"...Mars"` lose
 * their dots as before. Idempotent: a symbol id is its own symbol.
 */
export function symbolId(label: string): string {
  if (isPlainSymbol(label)) return label;
  return label.trim().toLowerCase().replace(SYMBOL_GAPS, '_').replace(EDGE_UNDERSCORES, '');
}

/**
 * Whether a label is already a symbol id made only of lower-case ASCII
 * letters, digits, `:`, `_`, `-`, `+` and `#` (not starting or ending with
 * `_`): the common case (ids passed back in), returned as it is.
 */
function isPlainSymbol(label: string): boolean {
  const n = label.length;
  if (n === 0 || label.charCodeAt(0) === 95 || label.charCodeAt(n - 1) === 95) return false;
  for (let i = 0; i < n; i++) {
    const c = label.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 58) || c === 95 || c === 45 || c === 43 || c === 35) continue;
    return false;
  }
  return true;
}

/** Whether a predicate is the agent's own bookkeeping rather than knowledge. */
export function isMetadataPredicate(predicate: string): boolean {
  return predicate.startsWith('agent:');
}

/** Why a label names no symbol (it normalises to nothing, like `"???"`); null when it names one. */
export function emptySymbolProblem(label: string): string | null {
  return symbolId(label) ? null : `${JSON.stringify(label)} normalises to an empty symbol (symbols keep only letters, digits, ":", "_", "-", "+", "#" and a "." that starts a word)`;
}

/**
 * Why a fact from outside the runtime may not enter the graph, as
 * `part: reason`: a part that names no symbol, or an `agent:*` predicate (the
 * runtime's own bookkeeping, written only by the runtime). Null when it may.
 */
export function externalFactProblem(fact: { subject: string; predicate: string; object: string }): string | null {
  const ids = { subject: symbolId(fact.subject), predicate: symbolId(fact.predicate), object: symbolId(fact.object) };
  for (const part of ['subject', 'predicate', 'object'] as const) {
    if (!ids[part]) return `${part}: ${emptySymbolProblem(fact[part])!}`;
  }
  if (isMetadataPredicate(ids.predicate)) {
    return `predicate: ${JSON.stringify(fact.predicate)} is reserved: agent:* predicates are the runtime's own bookkeeping`;
  }
  return null;
}

export class KnowledgeGraph {
  private readonly labels = new Map<string, string>();
  private readonly byKey = new Map<string, Triple>();
  private readonly bySubject = new Map<string, Set<Triple>>();
  private readonly byPredicate = new Map<string, Set<Triple>>();
  private readonly byObject = new Map<string, Set<Triple>>();
  private knowledgeCount = 0;
  private changes = 0;
  private knowledgeChanges = 0;

  constructor(private readonly journal: Journal) {}

  /** Number of triples, metadata included. */
  get size(): number {
    return this.byKey.size;
  }

  /** Increases on every change (including undo): a cheap cache key. */
  get version(): number {
    return this.changes;
  }

  /** Increases on every change to knowledge (non-metadata) triples: the cache key of derived knowledge. */
  get knowledgeVersion(): number {
    return this.knowledgeChanges;
  }

  /** Number of non-metadata triples. */
  get knowledgeSize(): number {
    return this.knowledgeCount;
  }

  get symbolCount(): number {
    return this.labels.size;
  }

  /** Registers a symbol (idempotent) and returns its id. */
  symbol(label: string): string {
    const id = symbolId(label);
    if (id && !this.labels.has(id)) {
      this.labels.set(id, label.trim());
      this.journal.record(() => this.labels.delete(id));
    }
    return id;
  }

  hasSymbol(id: string): boolean {
    return this.labels.has(id);
  }

  label(id: string): string {
    return this.labels.get(id) ?? id;
  }

  symbols(): IterableIterator<string> {
    return this.labels.keys();
  }

  /**
   * Adds a triple (labels are normalised to symbols). Returns false when the
   * same triple is already known (a higher confidence then replaces the lower)
   * or when a part names no symbol ({@link emptySymbolProblem} tells which).
   * A part that is no string, or a confidence outside [0, 1] (a percentage,
   * NaN), throws, naming it: the saved graph could not hold it, so no resume
   * could load a snapshot taken after it.
   */
  add(subject: string, predicate: string, object: string, confidence = 1): boolean {
    const problem = tripleProblem(subject, predicate, object, confidence);
    if (problem) throw new TypeError(`knowledge graph: ${problem}`);
    const s = this.symbol(subject);
    const p = predicate.startsWith('agent:') ? predicate : this.symbol(predicate);
    const o = this.symbol(object);
    if (!s || !p || !o) return false;
    const key = tripleKey(s, p, o);
    const existing = this.byKey.get(key);
    if (existing) {
      if (confidence > existing.confidence) {
        const before = existing.confidence;
        this.reweigh(existing, confidence);
        this.journal.record(() => this.reweigh(existing, before));
      }
      return false;
    }
    const triple: Triple = { subject: s, predicate: p, object: o, confidence };
    this.insert(key, triple);
    this.journal.record(() => this.erase(key, triple));
    return true;
  }

  /** Removes every triple matching the pattern; returns how many. Undone, the graph is put back in its order (not with them last). */
  remove(pattern: TriplePattern): number {
    const victims = this.query(pattern);
    if (victims.length === 0) return 0;
    const before = [...this.byKey.values()];
    for (const triple of victims) this.erase(tripleKey(triple.subject, triple.predicate, triple.object), triple);
    this.journal.record(() => this.rebuild(before));
    return victims.length;
  }

  /** Triples matching a pattern; unset parts match anything. Labels are normalised. */
  query(pattern: TriplePattern): Triple[] {
    const s = pattern.subject === undefined ? undefined : symbolId(pattern.subject);
    const p = pattern.predicate === undefined ? undefined : pattern.predicate.startsWith('agent:') ? pattern.predicate : symbolId(pattern.predicate);
    const o = pattern.object === undefined ? undefined : symbolId(pattern.object);
    // Scan the smallest index that applies (the first of equals: subject, predicate, object).
    let smallest = s === undefined ? undefined : this.bySubject.get(s) ?? EMPTY;
    const byPredicate = p === undefined ? undefined : this.byPredicate.get(p) ?? EMPTY;
    if (byPredicate && (!smallest || byPredicate.size < smallest.size)) smallest = byPredicate;
    const byObject = o === undefined ? undefined : this.byObject.get(o) ?? EMPTY;
    if (byObject && (!smallest || byObject.size < smallest.size)) smallest = byObject;
    const pool: Iterable<Triple> = smallest ?? this.byKey.values();
    const out: Triple[] = [];
    for (const t of pool) {
      if ((s === undefined || t.subject === s) && (p === undefined || t.predicate === p) && (o === undefined || t.object === o)) out.push(t);
    }
    return out;
  }

  /** Number of triples touching a symbol, without building the list. */
  degree(symbol: string, includeMetadata = false): number {
    let n = 0;
    for (const set of [this.bySubject.get(symbol), this.byObject.get(symbol)]) {
      if (!set) continue;
      if (includeMetadata) n += set.size;
      else for (const t of set) if (!isMetadataPredicate(t.predicate)) n++;
    }
    return n;
  }

  /** Triples in which the symbol is subject or object (knowledge only by default), the first `limit` of them. */
  adjacent(symbol: string, includeMetadata = false, limit = Infinity): Triple[] {
    const out: Triple[] = [];
    for (const set of [this.bySubject.get(symbol), this.byObject.get(symbol)]) {
      if (!set) continue;
      for (const t of set) {
        if (out.length >= limit) return out;
        if (includeMetadata || !isMetadataPredicate(t.predicate)) out.push(t);
      }
    }
    return out;
  }

  /**
   * Spreading activation from seed symbols: each hop passes
   * `activation × confidence × decay` to neighbours (knowledge triples only),
   * keeping the strongest path. Returns the top-k activated symbols other than
   * the seeds, strongest first.
   * Options: decay 0.5, depth 2, topK 10, fanOut 64 (edges followed per node).
   */
  spread(seeds: readonly string[], { decay = 0.5, depth = 2, topK = 10, fanOut = 64 } = {}): Activation[] {
    const activation = new Map<string, number>();
    let frontier = new Map<string, number>();
    for (const seed of seeds) if (this.labels.has(seed)) frontier.set(seed, 1);
    const seedSet = new Set(frontier.keys());
    for (let hop = 0; hop < depth && frontier.size > 0; hop++) {
      const next = new Map<string, number>();
      for (const [node, value] of frontier) {
        let followed = 0;
        for (const set of [this.bySubject.get(node), this.byObject.get(node)]) {
          if (!set) continue;
          for (const t of set) {
            if (followed >= fanOut) break;
            if (isMetadataPredicate(t.predicate)) continue;
            followed++;
            const neighbour = t.subject === node ? t.object : t.subject;
            if (seedSet.has(neighbour)) continue;
            const passed = value * t.confidence * decay;
            if (passed > (activation.get(neighbour) ?? 0)) {
              activation.set(neighbour, passed);
              next.set(neighbour, passed);
            }
          }
        }
      }
      frontier = next;
    }
    return [...activation]
      .map(([symbol, value]) => ({ symbol, activation: Math.round(value * 1000) / 1000 }))
      .sort((a, b) => b.activation - a.activation || (a.symbol < b.symbol ? -1 : 1))
      .slice(0, topK);
  }

  /** How many triples use a predicate. */
  predicateCount(predicate: string): number {
    return this.byPredicate.get(predicate)?.size ?? 0;
  }

  /** The predicates in use, knowledge only. */
  predicates(): string[] {
    const out: string[] = [];
    for (const [p, set] of this.byPredicate) if (set.size > 0 && !isMetadataPredicate(p)) out.push(p);
    return out;
  }

  /** Every triple, insertion order. */
  triples(): IterableIterator<Triple> {
    return this.byKey.values();
  }

  /**
   * The graph as plain data, triples in insertion order: {@link load} rebuilds
   * every index in the same order, so queries, adjacency and spreading
   * activation (which follows at most `fanOut` edges) answer in the same order
   * after a restore as before it (sorted triples made a restored mind reason
   * differently from the one saved).
   */
  toJSON(): { symbols: [string, string][]; triples: Triple[] } {
    return { symbols: [...this.labels], triples: Array.from(this.byKey.values(), (t) => ({ ...t })) };
  }

  load(json: { symbols: [string, string][]; triples: Triple[] }): void {
    this.labels.clear();
    for (const [id, label] of json.symbols) this.labels.set(id, label);
    this.rebuild(json.triples.map((t) => ({ ...t })));
  }

  /** Replaces every triple with `triples`, indexes in their order; a change even with none (caches of the graph before are stale). */
  private rebuild(triples: readonly Triple[]): void {
    this.changes++;
    this.knowledgeChanges++;
    this.byKey.clear();
    this.bySubject.clear();
    this.byPredicate.clear();
    this.byObject.clear();
    this.knowledgeCount = 0;
    for (const triple of triples) this.insert(tripleKey(triple.subject, triple.predicate, triple.object), triple);
  }

  private insert(key: string, triple: Triple): void {
    this.byKey.set(key, triple);
    index(this.bySubject, triple.subject, triple);
    index(this.byPredicate, triple.predicate, triple);
    index(this.byObject, triple.object, triple);
    this.changed(triple, +1);
  }

  private erase(key: string, triple: Triple): void {
    this.byKey.delete(key);
    this.bySubject.get(triple.subject)?.delete(triple);
    this.byPredicate.get(triple.predicate)?.delete(triple);
    this.byObject.get(triple.object)?.delete(triple);
    this.changed(triple, -1);
  }

  /** Sets a known triple's confidence: a change like any other to what spreading activation and reasoning derive from the graph. */
  private reweigh(triple: Triple, confidence: number): void {
    triple.confidence = confidence;
    this.changed(triple, 0);
  }

  /** Bumps the versions for a change to `triple`; `added`: +1 inserted, −1 erased, 0 changed in place. */
  private changed(triple: Triple, added: -1 | 0 | 1): void {
    this.changes++;
    if (isMetadataPredicate(triple.predicate)) return;
    this.knowledgeCount += added;
    this.knowledgeChanges++;
  }
}

const EMPTY: Set<Triple> = new Set();

/** The key a triple is held under: its three parts. */
function tripleKey(subject: string, predicate: string, object: string): string {
  return `${subject}\u0000${predicate}\u0000${object}`;
}

function index(map: Map<string, Set<Triple>>, key: string, triple: Triple): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(triple);
}

