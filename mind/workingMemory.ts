/**
 * Working memory (seed 001): the agent's scratch space. A full memory never
 * refuses an entry: it evicts its oldest low-relevance entry (or, when every
 * entry is relevant, its oldest). An entry keeps at most {@link ENTRY_CHARS}
 * characters of its content. An entry with a `key` replaces the entry
 * holding that key, so memory keeps the latest of each (a sensor's reading,
 * not its history). Consulting an entry bumps its reference count.
 * All mutations are journaled. Entries stay in ascending id order: a push
 * appends the next id, eviction, replacement and removal keep the order.
 */
import { z } from 'zod';
import { describeValue } from './describeValue.js';
import type { Journal } from './journal.js';

export const MemoryKind = z.enum(['Observation', 'Inference', 'Decision', 'Action', 'Reflection']);
export type MemoryKind = z.infer<typeof MemoryKind>;

export const MemoryEntry = z.object({
  id: z.number().int(),
  content: z.string(),
  symbols: z.array(z.string()),
  kind: MemoryKind,
  at: z.number(),
  relevance: z.number().min(0).max(1),
  sourceCycle: z.number().int().nonnegative(),
  referenceCount: z.number().int().nonnegative(),
  goalId: z.string().optional(),
  /** At most one entry per key is in memory: a new one replaces the old (e.g. `sensor:temp`). */
  key: z.string().optional(),
});
export type MemoryEntry = z.infer<typeof MemoryEntry>;

export type NewMemoryEntry = Omit<MemoryEntry, 'id' | 'referenceCount' | 'sourceCycle'>;

/** Entries below this relevance are evicted first. */
export const LOW_RELEVANCE = 0.5;

/** The longest content an entry keeps; longer content is cut (memory holds notes: a goal's description, an input, may run to a megabyte). */
export const ENTRY_CHARS = 400;

/** A memoised filter's progress (see {@link WorkingMemory.newestWhere}). */
interface FilterMemo {
  generation: number;
  /** The highest entry id tested so far. */
  testedThrough: number;
  /** Entries that passed, in id order; some may have left memory since. */
  matches: MemoryEntry[];
}

export class WorkingMemory {
  private entries: MemoryEntry[] = [];
  private nextId = 1;
  /**
   * Bumped whenever entries come back or are replaced: an undone push (which
   * undoes its eviction too), an undone removal, a load. Ids tested before may
   * then name other entries.
   */
  private generation = 0;
  private readonly memos = new WeakMap<object, FilterMemo>();
  /** The entry in memory holding each key. */
  private readonly keyed = new Map<string, MemoryEntry>();

  constructor(
    private readonly journal: Journal,
    readonly capacity: number = 100,
  ) {}

  get size(): number {
    return this.entries.length;
  }

  /** entries / capacity, in [0, 1]. */
  get pressure(): number {
    return this.entries.length / this.capacity;
  }

  /**
   * Adds an entry made in cycle `sourceCycle`: it replaces the entry holding
   * its key, if any, or else evicts one first when full. Returns the new entry.
   * An entry the saved memory could not hold (no string content, a kind it
   * does not know, a relevance outside [0, 1], a time that is not finite)
   * throws, naming the field.
   */
  push(entry: NewMemoryEntry, sourceCycle: number): MemoryEntry {
    const problem = entryProblem(entry);
    if (problem) throw new TypeError(`working memory: ${problem}`);
    const replaced = entry.key === undefined ? undefined : this.keyed.get(entry.key);
    if (replaced) this.removeAt(this.indexOf(replaced));
    else if (this.entries.length >= this.capacity) this.evictOne();
    // Built field by field, not spread: every entry gets the same shape, which keeps the hot paths monomorphic.
    const stored: MemoryEntry = {
      id: this.nextId++,
      content: entry.content.length > ENTRY_CHARS ? entry.content.slice(0, ENTRY_CHARS) : entry.content,
      symbols: entry.symbols,
      kind: entry.kind,
      at: entry.at,
      relevance: entry.relevance,
      sourceCycle,
      referenceCount: 0,
    };
    if (entry.goalId !== undefined) stored.goalId = entry.goalId;
    this.entries.push(stored);
    this.journal.record(() => {
      this.entries.splice(this.entries.lastIndexOf(stored), 1);
      this.nextId--;
      this.generation++;
    });
    if (entry.key !== undefined) {
      stored.key = entry.key;
      this.setKeyed(entry.key, stored);
    }
    return stored;
  }

  /**
   * The newest `n` entries whose content passes `test`, oldest first. `test`
   * must depend on the content alone: its answers are memoised under `key`
   * (the same query every cycle), so each entry is tested once per key, not
   * once per call.
   */
  newestWhere(key: object, test: (content: string) => boolean, n: number): MemoryEntry[] {
    let memo = this.memos.get(key);
    if (!memo || memo.generation !== this.generation) this.memos.set(key, (memo = { generation: this.generation, testedThrough: 0, matches: [] }));
    const entries = this.entries;
    let untested = entries.length;
    while (untested > 0 && entries[untested - 1]!.id > memo.testedThrough) untested--;
    for (let i = untested; i < entries.length; i++) if (test(entries[i]!.content)) memo.matches.push(entries[i]!);
    if (entries.length > 0) memo.testedThrough = Math.max(memo.testedThrough, entries[entries.length - 1]!.id);
    // Both lists ascend by id: walk them back together, skipping matches that have left memory.
    const matches = memo.matches;
    const found: MemoryEntry[] = [];
    let kept = 0;
    for (let i = entries.length - 1, j = matches.length - 1; j >= 0 && i >= 0; ) {
      const id = matches[j]!.id;
      if (id > entries[i]!.id) j--;
      else if (id < entries[i]!.id) i--;
      else {
        if (found.length < n) found.push(entries[i]!);
        matches[matches.length - 1 - kept++] = matches[j]!;
        i--;
        j--;
      }
    }
    if (kept < matches.length) matches.splice(0, matches.length - kept);
    return found.reverse();
  }

  /** The newest `n` entries, newest last. */
  recent(n: number): readonly MemoryEntry[] {
    return this.entries.slice(Math.max(0, this.entries.length - n));
  }

  all(): readonly MemoryEntry[] {
    return this.entries;
  }

  /** Marks an entry as consulted. */
  consult(entry: MemoryEntry): void {
    entry.referenceCount++;
    this.journal.record(() => {
      entry.referenceCount--;
    });
  }

  /** Removes the given entries (after consolidation). */
  remove(ids: ReadonlySet<number>): number {
    if (ids.size === 0) return 0;
    const before = this.entries;
    const kept: MemoryEntry[] = [];
    for (const e of before) {
      if (!ids.has(e.id)) kept.push(e);
      else this.leaving(e);
    }
    this.entries = kept;
    this.journal.record(() => {
      this.entries = before;
      this.generation++;
    });
    return before.length - this.entries.length;
  }

  /** The index of an entry in memory (entries ascend by id). */
  private indexOf(entry: MemoryEntry): number {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.id < entry.id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Removes the entry at `index`, unlinking it from its key. */
  private removeAt(index: number): void {
    const [removed] = this.entries.splice(index, 1);
    this.journal.record(() => {
      this.entries.splice(index, 0, removed!);
      this.generation++;
    });
    this.leaving(removed!);
  }

  /** Unlinks an entry that leaves memory from its key. */
  private leaving(entry: MemoryEntry): void {
    if (entry.key !== undefined && this.keyed.get(entry.key) === entry) this.setKeyed(entry.key, undefined);
  }

  private setKeyed(key: string, entry: MemoryEntry | undefined): void {
    const before = this.keyed.get(key);
    if (entry) this.keyed.set(key, entry);
    else this.keyed.delete(key);
    this.journal.record(() => {
      if (before) this.keyed.set(key, before);
      else this.keyed.delete(key);
    });
  }

  private evictOne(): void {
    let victim = -1;
    for (let i = 0; i < this.entries.length; i++) {
      if (this.entries[i]!.relevance < LOW_RELEVANCE) {
        victim = i;
        break;
      }
    }
    this.removeAt(Math.max(victim, 0));
  }

  toJSON(): { capacity: number; nextId: number; entries: MemoryEntry[] } {
    return { capacity: this.capacity, nextId: this.nextId, entries: this.entries.map((e) => ({ ...e, symbols: [...e.symbols] })) };
  }

  /**
   * Replaces the entries with saved ones. A state saved under a larger
   * capacity (resumed with a smaller `workingMemoryCapacity`) is cut to this
   * one as a full memory evicts; else it stayed over capacity for good, each
   * new entry evicting one. (The evictions' undo records are dropped by the
   * checkpoint the mind takes after loading.)
   */
  load(json: { nextId: number; entries: MemoryEntry[] }): void {
    this.entries = json.entries.map((e) => ({ ...e, symbols: [...e.symbols] })).sort((a, b) => a.id - b.id);
    this.nextId = Math.max(json.nextId, (this.entries.at(-1)?.id ?? 0) + 1);
    this.keyed.clear();
    for (const e of this.entries) if (e.key !== undefined) this.keyed.set(e.key, e);
    while (this.entries.length > this.capacity) this.evictOne();
    this.generation++;
  }
}

const KINDS: ReadonlySet<unknown> = new Set(MemoryKind.options);

/**
 * Why a new entry makes none the {@link MemoryEntry} schema takes, or
 * undefined. A tool's `ctx.mind.remember({ kind: 'Note', … })`, a NaN
 * relevance or time, a symbol or `goalId` that is no string made an entry no
 * resume could load. Plain checks: push is on every cycle's path.
 */
function entryProblem(entry: NewMemoryEntry): string | undefined {
  if (entry === null || typeof entry !== 'object') return `expected an entry { content, symbols, kind, at, relevance }, got ${describeValue(entry)}`;
  if (typeof entry.content !== 'string') return `content must be a string (got ${describeValue(entry.content)})`;
  if (!Array.isArray(entry.symbols)) return `symbols must be an array of strings (got ${describeValue(entry.symbols)})`;
  for (let i = 0; i < entry.symbols.length; i++) {
    if (typeof entry.symbols[i] !== 'string') return `symbols must be an array of strings (got ${describeValue(entry.symbols[i])} at ${i})`;
  }
  if (!KINDS.has(entry.kind)) return `kind must be one of ${MemoryKind.options.join(', ')} (got ${describeValue(entry.kind)})`;
  // NaN and Infinity too: the saved state writes them as null.
  if (!Number.isFinite(entry.at)) return `at must be a time in ms (got ${describeValue(entry.at)})`;
  if (typeof entry.relevance !== 'number' || !(entry.relevance >= 0 && entry.relevance <= 1)) return `relevance must be a number from 0 to 1 (got ${describeValue(entry.relevance)})`;
  if (entry.goalId !== undefined && typeof entry.goalId !== 'string') return `goalId must be a goal id, a string, when given (got ${describeValue(entry.goalId)})`;
  if (entry.key !== undefined && typeof entry.key !== 'string') return `key must be a string when given (got ${describeValue(entry.key)})`;
  return undefined;
}
