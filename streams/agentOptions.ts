/**
 * The checks createAgent makes on its own options, so that a bad option is an
 * error naming it rather than a TypeError from deep inside: the config is
 * validated like resolveConfig's layers (a {@link ConfigError},
 * `config createAgent options: maxCycles: …`), and the lists are checked for
 * their shape, naming the option and the index: `watchers[0] is not a
 * function (got 42)`. What a tool or skill must be is its registry's to
 * check; its errors are prefixed with the index (`tools[1]: …`).
 */
import { describeValue } from '../mind/describeValue.js';
import { AgentConfig, resolveConfig, type AgentConfigInput } from './config.js';
import type { CommandHandler } from './runtime.js';

/** The `config` option, resolved with its defaults; throws a ConfigError naming the bad key. */
export function configOption(input: AgentConfigInput | undefined): AgentConfig {
  return resolveConfig([{ origin: 'createAgent options', values: (input ?? {}) as Record<string, unknown> }]);
}

/** A list option (`watchers`, `tools`, `skills`): an array whose items pass `isItem`, else a TypeError naming the option and index. */
export function listOption<T>(name: string, value: readonly T[] | undefined, expected: string, isItem: (item: unknown) => boolean): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${name} must be an array (got ${describeValue(value)})`);
  value.forEach((item: unknown, i) => {
    if (!isItem(item)) throw new TypeError(`${name}[${i}] is not ${expected} (got ${describeValue(item)})`);
  });
  return value;
}

/** Registers each item of a list option, prefixing a registry's error with the option and index (`skills[1]: …`). */
export function registerEach<T>(name: string, items: readonly T[], register: (item: T) => unknown): void {
  items.forEach((item, i) => {
    try {
      register(item);
    } catch (error) {
      throw new Error(`${name}[${i}]: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  });
}

/** The `commands` option as an array of `[name, handler]` pairs, each checked; throws naming the index. */
export function commandsOption(value: Iterable<[string, CommandHandler]> | undefined): [string, CommandHandler][] {
  if (value === undefined) return [];
  if (!isIterable(value) || typeof value === 'string') {
    throw new TypeError(`commands must be an iterable of [name, handler] pairs, e.g. a Map (got ${describeValue(value)})`);
  }
  return [...value].map((entry: unknown, i) => {
    if (!Array.isArray(entry) || entry.length !== 2) throw new TypeError(`commands[${i}] is not a [name, handler] pair (got ${describeValue(entry)})`);
    // The name is the command table's to check (streams/commandTable.ts).
    const [name, handler] = entry as [string, unknown];
    if (typeof handler !== 'function') throw new TypeError(`commands[${i}] (${name}): the handler is not a function (got ${describeValue(handler)})`);
    return [name, handler as CommandHandler];
  });
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return value !== null && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}
