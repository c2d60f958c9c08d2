/**
 * The cycle context: one pass of a signal through observe → orient → decide →
 * act. Stage operators fill it in place and append the events they make to
 * `events`; the pipeline emits those events in order once the pass is done.
 *
 * A user operator inserted between stages reads and annotates the same object
 * (e.g. `cycle.veto = 'reason'` before act). Return the same object rather than
 * a copy, so that recovery still sees every event recorded so far.
 */
import { describeValue } from '../mind/describeValue.js';
import type { Goal } from '../mind/goals.js';
import type { Outcome } from '../mind/goalEvaluation.js';
import type { Observation, Orientation } from '../mind/observation.js';
import type { Decision } from '../mind/toolSelection.js';
import type { Draft, EventBody, EventKind } from './events.js';
import type { OperatorFunction } from 'rxjs';
import type { Runtime } from './runtime.js';
import type { Signal } from './signals.js';

export interface Cycle {
  readonly signal: Signal;
  /** The goal this pass works on, when it runs a cycle. */
  goal?: Goal;
  observation?: Observation;
  orientation?: Orientation;
  /** The chosen tool; null when no tool was available. */
  decision?: Decision | null;
  /** Set (with a reason) to stop act from running the decided tool. */
  veto?: string;
  outcome?: Outcome;
  /** A signal to re-enter the cycle with at depth + 1. */
  followUp?: Signal;
  /** Set by recover when this pass failed. */
  failure?: { severity: 'transient' | 'critical'; message: string };
  readonly events: Draft[];
}

/**
 * What keeps a value an operator emitted from being a cycle (`42`, `an
 * object without an events array`), or undefined when it is one: an object
 * with a `signal` and an `events` array, as every stage, operator between
 * stages and watcher must pass on.
 */
export function notACycle(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return describeValue(value);
  const { signal, events } = value as Partial<Cycle>;
  if (!Array.isArray(events)) return 'an object without an events array';
  if (signal === null || typeof signal !== 'object') return 'an object without a signal';
  return undefined;
}

/** Builds a stateful operator over the stream of finished passes (loop detection, reflection). */
export type Watcher = (runtime: Runtime) => OperatorFunction<Cycle, Cycle>;

/**
 * Starts a pass for a signal: marks the mind's rollback point and opens the
 * context. An extension that failed to forget a goal retired at the
 * checkpoint is reported on the pass (a critical `error` naming it).
 */
export function beginCycle(runtime: Runtime, signal: Signal): Cycle {
  const failures = runtime.mind.checkpoint();
  const cycle: Cycle = { signal, events: [] };
  for (const { extension, goalId, message } of failures) {
    const text = `mind extension ${JSON.stringify(extension)} failed to forget retired goal ${goalId}: ${message}`;
    record(runtime, cycle, 'error', { severity: 'critical', message: text, rolledBack: false, signalType: signal.type, depth: signal.depth });
  }
  return cycle;
}

/**
 * Appends an event to the pass, stamped with its kind, the current cycle and
 * scheduler time. The stamp wins over a body's own `kind`, `cycle` or `at`
 * (the types forbid them, a JS caller may pass them); the stamp's keys stay first.
 */
export function record<K extends EventKind>(runtime: Runtime, cycle: Cycle, kind: K, body: EventBody<K>): void {
  const stamped = runtime.mind.cycle;
  const at = runtime.now();
  const draft = { kind, cycle: stamped, at, ...body } as Draft<K>;
  // Assigned again, in their places: a body's own kind, cycle or at spread over them.
  draft.kind = kind;
  draft.cycle = stamped;
  draft.at = at;
  cycle.events.push(draft as Draft);
}

/** Marks a pass as vetoed before act (a user operator's or a skill's veto). */
export function vetoCycle(cycle: Cycle, reason: string): Cycle {
  if (cycle.decision) cycle.veto = reason;
  return cycle;
}
