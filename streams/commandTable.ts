/**
 * The agent's commands by name: each name is checked as it is registered,
 * and a handler is run so that what it does wrong is reported, naming the
 * command.
 *
 * - A name must be one a command signal can carry (signals.ts: a non-empty
 *   string without surrounding whitespace), or no signal could ever call it.
 *   A later handler for the same name replaces the earlier one.
 * - A handler that throws fails the pass as before (a critical error, the
 *   mind rolled back), its message prefixed `command "boom" failed: `.
 * - The `command` event's result is a string: a result that is not one is
 *   reported as its JSON (`{"done":true}`, `42`), `undefined` as an empty
 *   result; a promise (an async handler) is an error naming the command.
 */
import { describeValue } from '../mind/describeValue.js';
import { isPromiseMisuse, promiseMisuseMessage } from '../mind/promiseMisuse.js';
import type { Cycle } from './cycle.js';
import type { CommandHandler, Runtime } from './runtime.js';
import { CommandSignal } from './signals.js';

const commandName = CommandSignal.shape.command;

/** The commands by name; throws naming the first name no command signal could carry. */
export function commandTable(entries: Iterable<[string, CommandHandler]>): Map<string, CommandHandler> {
  const table = new Map<string, CommandHandler>();
  for (const [name, handler] of entries) {
    if (commandName.safeParse(name).data !== name) {
      throw new Error(
        `command name ${describeValue(name)} cannot be registered: a command signal names its command by a non-empty string without surrounding whitespace, so none could call it`,
      );
    }
    table.set(name, handler);
  }
  return table;
}

/** Runs the command `name` for the pass, returning the result line its `command` event reports. */
export function invokeCommand(runtime: Runtime, cycle: Cycle, name: string): string {
  const handler = runtime.commands.get(name);
  if (!handler) return `no handler for ${JSON.stringify(name)} in this agent`;
  let result: unknown;
  try {
    result = handler(runtime, cycle);
  } catch (error) {
    throw new Error(`command ${JSON.stringify(name)} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return resultLine(name, result);
}

function resultLine(name: string, result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  if (isPromiseMisuse(result)) throw new Error(promiseMisuseMessage(`command ${JSON.stringify(name)}`, 'the line to report'));
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return String(result);
  }
}
