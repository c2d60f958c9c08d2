/**
 * A value as JSON holds it, as every event is written (stdout, the store, the
 * dashboard): a BigInt anywhere in it, or a cycle of references, makes
 * `JSON.stringify` throw, far from where the value came from, and one nested
 * deeper than the store's JSON functions take fails the write of every event
 * and snapshot holding it (a plan keeps its steps' inputs); so a tool's or a
 * skill's input is checked, and copied, where it is proposed.
 */
import { MAX_VALUE_NESTING, nestingProblem } from './jsonNesting.js';

/**
 * A deep copy of `value` as JSON holds it (`JSON.parse(JSON.stringify(value))`,
 * undefined for undefined), frozen when `frozen`, or why it has none (`it holds a BigInt`, `it refers
 * to itself`, `it is nested more than 100 levels deep …`). What a decision records as its input: whoever still holds the
 * original (the tool that proposed it, reusing one object; a skill) cannot
 * change recorded events by changing it, and nobody can change the copy.
 */
export function jsonCopy(value: unknown, frozen: boolean): { copy: unknown } | { problem: string } {
  // Most inputs ({ query, topK }, { about: [...] }): copied without the JSON round trip, which was a tenth of a cycle's time.
  const plain = plainCopy(value, frozen);
  if (plain !== NOT_PLAIN) return { copy: plain };
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (error instanceof TypeError && /BigInt/i.test(error.message)) return { problem: 'it holds a BigInt' };
    if (error instanceof TypeError && /circular/i.test(error.message)) return { problem: 'it refers to itself (a circular structure)' };
    return { problem: `JSON.stringify failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const copy: unknown = text === undefined ? undefined : JSON.parse(text, frozen ? freeze : undefined);
  const tooDeep = nestingProblem(copy);
  return tooDeep ? { problem: `it is ${tooDeep}` } : { copy };
}

/** What {@link plainCopy} returns for a value JSON would change or refuse. */
export const NOT_PLAIN: unique symbol = Symbol('not plain JSON');

/** How deep {@link plainCopy} copies (well within {@link MAX_VALUE_NESTING}); a value nested deeper takes the JSON round trip, and its nesting check. */
const PLAIN_DEPTH = 16;

/**
 * A deep copy of `value` (each object and array frozen when `frozen`), when
 * it is plain JSON: strings, booleans, null, finite numbers, arrays and plain
 * objects of them, up to 16 levels, which JSON holds exactly as they are.
 * Anything else (undefined, a BigInt, a Date, a class instance, a cycle, NaN,
 * an own `__proto__` key) gives {@link NOT_PLAIN}: the caller takes the JSON
 * round trip, and its checks.
 */
export function plainCopy(value: unknown, frozen: boolean, depth = PLAIN_DEPTH): unknown {
  const type = typeof value;
  if (type === 'string' || type === 'boolean' || value === null) return value;
  if (type === 'number') return Number.isFinite(value) ? value : NOT_PLAIN;
  if (type !== 'object' || depth === 0) return NOT_PLAIN;
  let copy: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) {
    copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = plainCopy(value[i], frozen, depth - 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      copy[i] = item;
    }
  } else {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
    copy = {};
    for (const key in value as object) {
      // Assigned, it would set the copy's prototype instead (JSON.parse makes it an own key): the round trip keeps it.
      if (key === '__proto__') return NOT_PLAIN;
      const field = plainCopy((value as Record<string, unknown>)[key], frozen, depth - 1);
      if (field === NOT_PLAIN) return NOT_PLAIN;
      copy[key] = field;
    }
  }
  return frozen ? Object.freeze(copy) : copy;
}

function freeze(_key: string, value: unknown): unknown {
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

/** What JSON leaves out of an object (and makes null in an array). */
type NotJson = undefined | symbol | ((...args: never[]) => unknown);

/**
 * The type of `JSON.parse(JSON.stringify(value))` for a `T`: what
 * {@link jsonCopy} gives, and what a tool's effect resolves with. `toJSON`
 * is followed (a Date is a string, a Buffer `{ type, data }`); functions,
 * symbols and undefined leave objects (a field that may be undefined becomes
 * optional) and are null in arrays; a BigInt has none. A class instance keeps
 * only its data, so a method called on the copy is a type error, not a crash.
 * `unknown` and `any` stay as they are.
 */
export type AsJson<T> = 0 extends 1 & T ? T : unknown extends T ? T : JsonOf<T>;

/** {@link AsJson} of each member of `T`. */
type JsonOf<T> = T extends { toJSON(...args: never[]): infer R }
  ? AsJson<R>
  : T extends string | number | boolean | null
    ? T
    : T extends NotJson
      ? undefined
      : T extends readonly (infer Item)[]
        ? JsonItem<Item>[]
        : T extends object
          ? JsonObject<T>
          : never;

type JsonItem<T> = T extends NotJson ? null : AsJson<T>;

/** An object's fields as JSON keeps them, as one object type (not an intersection of two). */
type JsonObject<T> = Flat<
  {
    [K in keyof T as K extends string | number ? (T[K] extends NotJson ? never : undefined extends T[K] ? never : K) : never]: AsJson<T[K]>;
  } & {
    [K in keyof T as K extends string | number ? (T[K] extends NotJson ? never : undefined extends T[K] ? K : never) : never]?: AsJson<Exclude<T[K], undefined>>;
  }
>;

type Flat<T> = { [K in keyof T]: T[K] };
