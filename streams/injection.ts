/**
 * What `agent.inject` admits. Inject takes signals as the runtime builds them,
 * the runtime's own types (tick, feedback, error, heartbeat) included, but no
 * value may break the stream or the mind: one that is not an object, whose
 * `type` is no signal type, or whose envelope (`depth`, `meta`, `at`) is of
 * the wrong kind is refused with a reason, and a signal of an external type
 * (goal, fact, input, sensor, command) must pass the schema signals from
 * outside pass ({@link validateSignal}, whose wording the reasons share:
 * `invalid goal signal: description: …`) and, for a command, name one the
 * agent has a handler for ({@link unknownCommand}, as perceive checks it);
 * one of the runtime's own types must have the shape of its body
 * (streams/internalSignalShapes.ts: a heartbeat's `beat`, an error's
 * `message` and `severity`, and no other field). `meta` holds the fields
 * {@link SignalMeta} has (but a recorder's marks), each of its kind, and no
 * other (so nothing in it nests or refers to itself: it goes into events and
 * the store's signal log, and a replay reads it back with that schema); the
 * signal gets a copy. A missing `depth` is 0 and a missing `meta` is
 * `{ source: 'inject' }`.
 */
import { describeValue } from '../mind/describeValue.js';
import { issueMessage } from '../mind/issueMessage.js';
import { internalBodyProblem, type InternalInjectableType } from './internalSignalShapes.js';
import { isObject } from './isObject.js';
import { EXTERNAL_SIGNAL_TYPES, SignalMeta, type InternalSignal, type Signal } from './signals.js';
import { issueReason, signalTypeProblem, unknownCommand, validateSignal } from './validateSignal.js';

/** The runtime's own signal types inject accepts (`rejected` only reports a rejection, it is not injected). */
const INTERNAL_TYPES: Record<Exclude<InternalSignal['type'], 'rejected'>, true> = { tick: true, heartbeat: true, feedback: true, error: true };

/** Every signal type inject accepts. */
const INJECTABLE_TYPES: readonly string[] = [...EXTERNAL_SIGNAL_TYPES, ...Object.keys(INTERNAL_TYPES)];
const TYPES: ReadonlySet<unknown> = new Set(INJECTABLE_TYPES);
const EXTERNAL: ReadonlySet<unknown> = new Set(EXTERNAL_SIGNAL_TYPES);

/** The `meta` a caller may give: not the marks a recorder sets on what it records (`pastMaxCycles`, `snapshotFailed`). */
const InjectedMeta = SignalMeta.omit({ pastMaxCycles: true, snapshotFailed: true });

export type Injection = { ok: true; signal: Signal } | { ok: false; reason: string };

/**
 * Admits a value given to inject as a signal (a copy with its envelope
 * defaults: `meta` is `{ source }`, `inject` unless given), or says why
 * not; `commands` are the agent's. A value that throws
 * as it is read (a getter, a Proxy) is refused with what it threw.
 */
export function admitInjected(value: unknown, commands: ReadonlyMap<string, unknown>, source = 'inject'): Injection {
  try {
    return admit(value, commands, source);
  } catch (error) {
    return refuse(`the signal could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function admit(value: unknown, commands: ReadonlyMap<string, unknown>, source: string): Injection {
  if (!isObject(value)) return refuse(`expected a signal object with a "type" field, got ${describeValue(value)}`);
  const { type, depth = 0, meta = { source }, at, ...body } = value;
  if (!TYPES.has(type)) return refuse(signalTypeProblem(type, INJECTABLE_TYPES));
  if (!Number.isInteger(depth) || (depth as number) < 0) return refuse(`invalid ${type} signal: depth: expected a whole number ≥ 0, got ${describeValue(depth)}`);
  if (!isObject(meta)) return refuse(`invalid ${type} signal: meta: expected an object (source, session, correlationId), got ${describeValue(meta)}`);
  const checkedMeta = InjectedMeta.safeParse(meta, { error: issueMessage });
  if (!checkedMeta.success) return refuse(issueReason(type as string, checkedMeta.error.issues[0]!, ['meta']));
  if (at !== undefined && !Number.isFinite(at)) return refuse(`invalid ${type} signal: at: expected a scheduler time in ms, got ${describeValue(at)}`);
  const envelope = { depth: depth as number, meta: checkedMeta.data, ...(at === undefined ? {} : { at: at as number }) };
  if (!EXTERNAL.has(type)) {
    const problem = internalBodyProblem(type as InternalInjectableType, body);
    return problem ? refuse(problem) : { ok: true, signal: { type, ...body, ...envelope } as Signal };
  }
  // The schema sets the defaults (a goal's priority, …); the envelope is inject's.
  const validated = validateSignal({ type, ...body });
  if (!validated.ok) return refuse(validated.reason);
  const unknown = unknownCommand(validated.signal, commands);
  if (unknown) return refuse(unknown);
  return { ok: true, signal: { ...validated.signal, ...envelope } };
}

function refuse(reason: string): Injection {
  return { ok: false, reason };
}
