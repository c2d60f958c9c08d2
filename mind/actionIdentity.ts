/**
 * What "the same action" means to loop detection, and a small table that
 * gives the actions in the detector's ring integer ids (same id ⇔ same
 * action), so the incremental detector compares and counts integers instead
 * of building and hashing a string per action.
 *
 * Two actions are the same when their types are equal and, with
 * `paramAware`, their params are deeply equal as plain data: equal
 * primitives, arrays element by element, objects with the same own keys (in
 * any order) and equal values. An action without params differs from one with
 * params.
 */

/** Whether two actions count as a repeat. */
export function sameAction(a: { type: string; params?: unknown }, b: { type: string; params?: unknown }, paramAware: boolean): boolean {
  return a.type === b.type && (!paramAware || deepEqual(a.params, b.params, 0));
}

/** An action as a human reads it: `READ {"path":"a.txt"}` with `paramAware`, else its type. */
export function actionLabel(action: { type: string; params?: unknown }, paramAware: boolean): string {
  if (!paramAware || action.params === undefined) return action.type;
  let text: string | undefined;
  try {
    text = JSON.stringify(action.params);
  } catch {
    text = undefined;
  }
  return `${action.type} ${text ?? String(action.params)}`;
}

/** Nesting below which params are compared by identity and no longer hashed (guards cyclic params). */
const MAX_DEPTH = 16;
const HASHED_DEPTH = 4;

function deepEqual(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth >= MAX_DEPTH) return false;
  const array = Array.isArray(a);
  if (array !== Array.isArray(b)) return false;
  if (array) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!deepEqual(x[i], y[i], depth + 1)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !deepEqual(x[key], y[key], depth + 1)) return false;
    keys++;
  }
  for (const key in y) if (Object.hasOwn(y, key)) keys--;
  return keys === 0;
}

function hashString(text: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** A hash consistent with {@link deepEqual}: deeply equal values hash alike. */
function hashValue(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return hashString(value, 0x811c9dc5);
    case 'number':
      return Number.isInteger(value) ? Math.imul((value as number) | 0, 0x85ebca6b) ^ 0x27d4eb2f : hashString(String(value), 0x165667b1);
    case 'boolean':
      return value ? 0x4cf5ad43 : 0x2545f491;
    case 'undefined':
      return 0x5bd1e995;
    case 'bigint':
      return hashString(String(value), 0x3c6ef372);
    case 'object': {
      if (value === null) return 0x1b873593;
      if (depth >= HASHED_DEPTH) return 0x61c88647;
      if (Array.isArray(value)) {
        let h = 0x7f4a7c15 + value.length;
        for (const item of value) h = Math.imul(h, 31) + hashValue(item, depth + 1);
        return h;
      }
      // Own keys in any order: a commutative sum of key–value hashes.
      let h = 0x6a09e667;
      const record = value as Record<string, unknown>;
      const plain = Object.getPrototypeOf(record) === Object.prototype;
      for (const key in record) {
        if (plain || Object.hasOwn(record, key)) h = (h + (hashString(key, 0x9e3779b9) ^ Math.imul(hashValue(record[key], depth + 1), 0x2c1b3c6d))) | 0;
      }
      return h;
    }
    default:
      return 0x0badf00d; // functions and symbols: compared by identity
  }
}

/**
 * Interns the actions held in a ring buffer: `acquire` returns the id of an
 * equal live action (or a new id) and takes a reference; `release` drops one.
 * An id is freed when its last reference goes, so at most `size` ids are ever
 * live and the table never grows with the history.
 */
export class ActionIds {
  /** Per id: the first action interned under it. */
  private readonly types: string[];
  private readonly params: unknown[];
  private readonly refs: Int32Array;
  private readonly hashes: Int32Array;
  /** Next id in the same hash bucket, or -1. */
  private readonly chain: Int32Array;
  private readonly buckets = new Map<number, number>();
  private readonly free: Int32Array;
  private freeCount: number;

  constructor(
    readonly size: number,
    private readonly paramAware: boolean,
  ) {
    this.types = new Array<string>(size).fill('');
    this.params = new Array<unknown>(size).fill(undefined);
    this.refs = new Int32Array(size);
    this.hashes = new Int32Array(size);
    this.chain = new Int32Array(size);
    this.free = new Int32Array(size);
    this.freeCount = 0;
    this.clear();
  }

  /** The id of this action (equal actions share one), with a new reference. */
  acquire(action: { type: string; params?: unknown }): number {
    const h = this.paramAware ? (hashString(action.type, 0x811c9dc5) ^ Math.imul(hashValue(action.params, 0), 0x9e3779b1)) | 0 : hashString(action.type, 0x811c9dc5);
    const bucket = h & 0x3fffffff;
    const head = this.buckets.get(bucket) ?? -1;
    for (let id = head; id !== -1; id = this.chain[id]) {
      if (this.hashes[id] === h && this.types[id] === action.type && (!this.paramAware || deepEqual(this.params[id], action.params, 0))) {
        this.refs[id]++;
        return id;
      }
    }
    const id = this.free[--this.freeCount];
    this.types[id] = action.type;
    this.params[id] = action.params;
    this.hashes[id] = h;
    this.refs[id] = 1;
    this.chain[id] = head;
    this.buckets.set(bucket, id);
    return id;
  }

  /** Drops a reference; the id is freed with its last one. */
  release(id: number): void {
    if (--this.refs[id] > 0) return;
    const bucket = this.hashes[id] & 0x3fffffff;
    const head = this.buckets.get(bucket)!;
    if (head === id) {
      if (this.chain[id] === -1) this.buckets.delete(bucket);
      else this.buckets.set(bucket, this.chain[id]);
    } else {
      let prev = head;
      while (this.chain[prev] !== id) prev = this.chain[prev];
      this.chain[prev] = this.chain[id];
    }
    this.params[id] = undefined;
    this.free[this.freeCount++] = id;
  }

  /** Frees every id. */
  clear(): void {
    this.buckets.clear();
    this.refs.fill(0);
    this.params.fill(undefined);
    for (let i = 0; i < this.size; i++) this.free[i] = this.size - 1 - i;
    this.freeCount = this.size;
  }
}
