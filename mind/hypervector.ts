/**
 * Binary hypervectors (VSA): `dim` bits packed in a Uint32Array.
 * Deterministic word vectors from a seeded hash, bind (XOR), bundle (bitwise
 * majority) and similarity = 1 − hamming / dim. Defaults: 10,000 bits, seed 1.
 */
import { words } from './text.js';

export const DEFAULT_DIM = 10_000;

/**
 * How many word vectors a space keeps (it is emptied past this): about 20 MB
 * at the default dimension. Every word of every goal, symbol and passage
 * passes through it, so unbounded it grew with a long run's distinct words
 * (60 000 generated goals held 150 MB). A vector dropped is made again, equal.
 */
const WORDS_KEPT = 16_384;

export class Hypervector {
  constructor(
    readonly dim: number,
    readonly bits: Uint32Array,
  ) {}
}

/** Builds hypervectors for one dimension and seed, caching word vectors. */
export class HypervectorSpace {
  private readonly cache = new Map<string, Hypervector>();
  readonly words32: number;

  constructor(
    readonly dim: number = DEFAULT_DIM,
    readonly seed: number = 1,
  ) {
    if (!Number.isInteger(dim) || dim < 32) throw new Error(`hypervector dimension must be an integer ≥ 32, got ${dim}`);
    this.words32 = Math.ceil(dim / 32);
  }

  /** The vector of a word: pseudo-random bits seeded by a hash of the word and the space's seed. */
  word(word: string): Hypervector {
    let vector = this.cache.get(word);
    if (!vector) {
      const bits = new Uint32Array(this.words32);
      let state = (fnv1a(word) ^ Math.imul(this.seed, 0x9e3779b1)) >>> 0 || 1;
      for (let i = 0; i < bits.length; i++) {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        bits[i] = state;
      }
      this.maskTail(bits);
      vector = new Hypervector(this.dim, bits);
      if (this.cache.size >= WORDS_KEPT) this.cache.clear();
      this.cache.set(word, vector);
    }
    return vector;
  }

  /** XOR binding: similar to neither input; `bind(bind(a, b), b) = a`. */
  bind(a: Hypervector, b: Hypervector): Hypervector {
    const bits = new Uint32Array(this.words32);
    for (let i = 0; i < bits.length; i++) bits[i] = a.bits[i]! ^ b.bits[i]!;
    return new Hypervector(this.dim, bits);
  }

  /**
   * Bitwise majority: similar to every input. Ties (an even count) are broken
   * by a fixed tie-break vector so the result stays deterministic.
   */
  bundle(vectors: readonly Hypervector[]): Hypervector {
    if (vectors.length === 0) return new Hypervector(this.dim, new Uint32Array(this.words32));
    if (vectors.length === 1) return vectors[0]!;
    const all = vectors.length % 2 === 0 ? [...vectors, this.word('\u0000tie-break')] : vectors;
    const half = all.length >> 1;
    const bits = new Uint32Array(this.words32);
    const counts = new Uint16Array(32);
    for (let w = 0; w < this.words32; w++) {
      counts.fill(0);
      for (const v of all) {
        let x = v.bits[w]!;
        while (x !== 0) {
          const low = x & -x;
          counts[31 - Math.clz32(low)]!++;
          x ^= low;
        }
      }
      let out = 0;
      for (let b = 0; b < 32; b++) if (counts[b]! > half) out |= 1 << b;
      bits[w] = out >>> 0;
    }
    this.maskTail(bits);
    return new Hypervector(this.dim, bits);
  }

  /** Encodes text as the bundle of its words (more than two characters, lower-cased). */
  encode(text: string): Hypervector {
    return this.bundle(words(text).map((w) => this.word(w)));
  }

  private maskTail(bits: Uint32Array): void {
    const extra = this.words32 * 32 - this.dim;
    if (extra > 0) bits[this.words32 - 1] = (bits[this.words32 - 1]! & (0xffffffff >>> extra)) >>> 0;
  }
}

/** 1 − hamming distance / dimension, in [0, 1]; unrelated vectors score about 0.5. */
export function similarity(a: Hypervector, b: Hypervector): number {
  if (a.dim !== b.dim) throw new Error(`hypervector dimensions differ: ${a.dim} vs ${b.dim}`);
  let distance = 0;
  for (let i = 0; i < a.bits.length; i++) distance += popcount(a.bits[i]! ^ b.bits[i]!);
  return 1 - distance / a.dim;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
