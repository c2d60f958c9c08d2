/**
 * Seeded randomness and ids, so every run with the same seed and inputs is
 * identical (the basis of deterministic replay). Given the mind's journal,
 * every draw and id is journaled, so a rollback restores the source too.
 */
import { z } from 'zod';
import type { Journal } from './journal.js';

export const RandomState = z.object({ seed: z.number().int(), state: z.number().int(), counters: z.record(z.string(), z.number().int()) });
export type RandomState = z.infer<typeof RandomState>;

export class SeededRandom {
  private state: number;
  private readonly counters = new Map<string, number>();

  constructor(
    readonly seed: number = 1,
    private readonly journal?: Journal,
  ) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1) (mulberry32). */
  next(): number {
    const before = this.state;
    this.journal?.record(() => {
      this.state = before;
    });
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** The next id with this prefix: `goal-1`, `goal-2`, … */
  id(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    this.journal?.record(() => this.releaseId(prefix));
    return `${prefix}-${n}`;
  }

  /** Undoes the last `id(prefix)`. */
  private releaseId(prefix: string): void {
    const n = this.counters.get(prefix) ?? 0;
    if (n > 1) this.counters.set(prefix, n - 1);
    else this.counters.delete(prefix);
  }

  toJSON(): RandomState {
    return { seed: this.seed, state: this.state, counters: Object.fromEntries(this.counters) };
  }

  static fromJSON(json: unknown, journal?: Journal): SeededRandom {
    const data = RandomState.parse(json);
    const random = new SeededRandom(data.seed, journal);
    random.state = data.state;
    for (const [k, v] of Object.entries(data.counters)) random.counters.set(k, v);
    return random;
  }
}
