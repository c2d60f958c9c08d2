/**
 * Working memory (seed 001): the agent's scratch space. A full memory never
 * refuses an entry: it evicts its oldest low-relevance entry (or, when every
 * entry is relevant, its oldest). Consulting an entry bumps its reference count.
 * All mutations are journaled.
 */
import { z } from 'zod';
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
});
export type MemoryEntry = z.infer<typeof MemoryEntry>;

export type NewMemoryEntry = Omit<MemoryEntry, 'id' | 'referenceCount' | 'sourceCycle'>;

/** Entries below this relevance are evicted first. */
export const LOW_RELEVANCE = 0.5;

export class WorkingMemory {
  private entries: MemoryEntry[] = [];
  private nextId = 1;

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

  /** Adds an entry made in cycle `sourceCycle`, evicting one first when full. Returns the new entry. */
  push(entry: NewMemoryEntry, sourceCycle: number): MemoryEntry {
    if (this.entries.length >= this.capacity) this.evictOne();
    // Built field by field, not spread: every entry gets the same shape, which keeps the hot paths monomorphic.
    const stored: MemoryEntry = {
      id: this.nextId++,
      content: entry.content,
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
    });
    return stored;
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
    this.entries = before.filter((e) => !ids.has(e.id));
    this.journal.record(() => {
      this.entries = before;
    });
    return before.length - this.entries.length;
  }

  private evictOne(): void {
    let victim = -1;
    for (let i = 0; i < this.entries.length; i++) {
      if (this.entries[i]!.relevance < LOW_RELEVANCE) {
        victim = i;
        break;
      }
    }
    if (victim < 0) victim = 0;
    const [evicted] = this.entries.splice(victim, 1);
    this.journal.record(() => {
      this.entries.splice(victim, 0, evicted!);
    });
  }

  toJSON(): { capacity: number; nextId: number; entries: MemoryEntry[] } {
    return { capacity: this.capacity, nextId: this.nextId, entries: this.entries.map((e) => ({ ...e, symbols: [...e.symbols] })) };
  }

  load(json: { nextId: number; entries: MemoryEntry[] }): void {
    this.entries = json.entries.map((e) => ({ ...e, symbols: [...e.symbols] }));
    this.nextId = json.nextId;
  }
}
