/**
 * The one validation path for signals from outside (a line on stdin, a
 * WebSocket message): shape first (an object with a known `type`), then the
 * zod schema. Problems are named with the field and the reason, e.g.
 * `invalid goal signal: priority: Too big: expected number to be <=255`.
 * A fact must name a symbol in each part and may not use the runtime's own
 * `agent:*` predicates (see `externalFactProblem`); a sensor's value may nest
 * at most 100 levels deep (mind/jsonNesting.ts), may hold no number that is
 * not finite, however deep (`value.x: expected a finite number, got
 * Infinity`: mind/finiteNumbers.ts), and may not have a `"__proto__"` key at
 * its top, which a goal or a fact may not have either.
 * The envelope (`depth`, `meta`, `at`) is the runtime's to set, not the
 * sender's: a signal from outside that carries it is rejected, so perceive can
 * stamp the transport's own source and every such signal is `perceived`.
 * A command's name is checked against the agent's own commands when it is
 * perceived ({@link unknownCommand}).
 */
import type { z } from 'zod';
import { describeValue } from '../mind/describeValue.js';
import { nonFiniteProblem } from '../mind/finiteNumbers.js';
import { nestingProblem } from '../mind/jsonNesting.js';
import { externalFactProblem } from '../mind/knowledgeGraph.js';
import { isObject } from './isObject.js';
import { EXTERNAL_SIGNAL_TYPES, ExternalSignal, type Signal } from './signals.js';

export type SignalValidation = { ok: true; signal: ExternalSignal } | { ok: false; reason: string };

/** What a transport accepts: its signal types (default: every external type) and its name for messages (`over WebSocket`). */
export interface TransportRule {
  types: readonly string[];
  name: string;
}

/** Validates a parsed JSON value as an external signal, of the types `transport` accepts. */
export function validateSignal(value: unknown, transport?: TransportRule): SignalValidation {
  const problem = shapeProblem(value, transport);
  if (problem) return { ok: false, reason: problem };
  const parsed = ExternalSignal.safeParse(value);
  if (parsed.success) {
    const content = contentProblem(parsed.data, value as Record<string, unknown>);
    return content ? { ok: false, reason: `invalid ${parsed.data.type} signal: ${content}` } : { ok: true, signal: parsed.data };
  }
  return { ok: false, reason: issueReason((value as { type: string }).type, parsed.error.issues[0]!) };
}

/**
 * A zod issue as the reason a signal of `type` is refused, naming the field
 * (under `within`, for a part parsed on its own): `invalid goal signal:
 * priority: …`, an unknown key by its own path (`meta.trace: Unrecognized
 * key: "trace"`).
 */
export function issueReason(type: string, issue: z.core.$ZodIssue, within: readonly PropertyKey[] = []): string {
  const path = [...within, ...issue.path].map(String);
  const places = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...path, key].join('.')) : [path.join('.')];
  return `invalid ${type} signal: ${places.join(', ') || 'signal'}: ${issue.message}`;
}

/** What the schema cannot say of a signal that has its shape (`given` as it came): a fact naming no symbol, a sensor value nested too deep, holding a number that is not finite or with a key its parse dropped. */
function contentProblem(signal: ExternalSignal, given: Record<string, unknown>): string | null {
  if (signal.type === 'fact') return externalFactProblem(signal);
  if (signal.type === 'sensor') {
    const problem = nestingProblem(signal.value);
    return problem ? `value: ${problem}` : (nonFiniteProblem(signal.value, 'value') ?? droppedKeyProblem(given.value));
  }
  return null;
}

/**
 * Why a sensor value as given has a key its parse dropped: an own
 * `"__proto__"` at its top (JSON.parse makes it an own key; zod's record, as
 * an assignment would, does not copy it), refused as a goal's or fact's is,
 * or null. Deeper down the value is kept as it came, key and all.
 */
function droppedKeyProblem(value: unknown): string | null {
  if (!isObject(value) || !Object.hasOwn(value, '__proto__')) return null;
  return 'value.__proto__: Unrecognized key: "__proto__" (an object parsed from the value would drop it, and its data with it): rename it';
}

function shapeProblem(value: unknown, transport: TransportRule | undefined): string | null {
  const types: readonly string[] = transport?.types ?? EXTERNAL_SIGNAL_TYPES;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `expected a JSON object with a "type" field, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  }
  const type = (value as { type?: unknown }).type;
  if (types.includes(type as string)) return envelopeProblem(type as string, value);
  const known = (EXTERNAL_SIGNAL_TYPES as readonly unknown[]).includes(type);
  if (known) return `${type as string} signals are not accepted ${transport?.name ?? 'here'} (expected one of ${types.join(', ')})`;
  return signalTypeProblem(type, types);
}

/** Why a `type` that is none of `accepted` is refused: missing, or unknown; the accepted types are listed. */
export function signalTypeProblem(type: unknown, accepted: readonly string[]): string {
  const expected = `expected one of ${accepted.join(', ')}`;
  // Not JSON.stringify: a sender's deeply nested `type` would overflow the stack.
  return type === undefined ? `missing "type" (${expected})` : `unknown signal type ${describeValue(type)} (${expected})`;
}

/** The envelope fields the runtime sets on a signal from outside, and what it sets them to. */
const RUNTIME_FIELDS = {
  depth: 'every signal from outside enters at depth 0',
  meta: 'its source is the transport it came by (stdin, a --kg file, ws-3, …) and its line the line number',
  at: 'it is stamped with the time it was perceived',
} as const;

const RUNTIME_FIELD_NAMES = Object.keys(RUNTIME_FIELDS) as (keyof typeof RUNTIME_FIELDS)[];

function envelopeProblem(type: string, value: object): string | null {
  for (const field of RUNTIME_FIELD_NAMES) {
    if (field in value) return `invalid ${type} signal: ${field}: set by the runtime, not by the sender: ${RUNTIME_FIELDS[field]}`;
  }
  return null;
}

/**
 * Why a command signal names no command the agent has a handler for, naming
 * the ones it has (null when it has it, or for any other signal):
 * `invalid command signal: command: Invalid option "hello": expected one of "pause"|"resume"|…`.
 */
export function unknownCommand(signal: Signal, commands: ReadonlyMap<string, unknown>): string | null {
  if (signal.type !== 'command' || commands.has(signal.command)) return null;
  const names = [...commands.keys()].map((name) => JSON.stringify(name)).join('|');
  // `save` is a stored session's (streams/saveCommand.ts): without a store there is nothing to save to.
  const why = signal.command === 'save' ? ' (save needs a store: ooda run --db FILE, or Persistence.agentOptions in code)' : '';
  return `invalid command signal: command: Invalid option ${JSON.stringify(signal.command)}: expected one of ${names}${why}`;
}
