/**
 * The events a pass emits: its drafts as the stages and watchers left them in
 * `cycle.events`. An entry that is no event (a watcher pushed `42`, or an
 * object without a known `kind`, a numeric `cycle` and `at`) is replaced by a
 * critical `error` naming it. It must not leave the agent: a sink cannot write
 * it, and the store refuses a row without a kind or cycle, and with it the
 * rest of its batch, again at every retry.
 *
 *   cycle.events:  [a, 42, b]   →   a, E, b   (E: error "… held 42, which is no event …")
 */
import { showValue } from '../mind/describeValue.js';
import type { Cycle } from './cycle.js';
import { EVENT_KINDS, type Draft } from './events.js';
import type { Runtime } from './runtime.js';

const KINDS: ReadonlySet<unknown> = new Set(EVENT_KINDS);

export function passEvents(runtime: Runtime, cycle: Cycle): readonly Draft[] {
  // Entries as they are, not as typed: a watcher may have pushed anything.
  const entries: readonly unknown[] = cycle.events;
  // Allocates nothing for a pass whose entries are all events, the usual case.
  if (entries.every(isDraft)) return cycle.events;
  return entries.map((entry) => (isDraft(entry) ? entry : notAnEvent(runtime, entry)));
}

function isDraft(entry: unknown): entry is Draft {
  const draft = entry as Partial<Draft> | null;
  return typeof draft === 'object' && draft !== null && KINDS.has(draft.kind) && typeof draft.cycle === 'number' && typeof draft.at === 'number';
}

function notAnEvent(runtime: Runtime, entry: unknown): Draft<'error'> {
  return {
    kind: 'error',
    cycle: runtime.mind.cycle,
    at: runtime.now(),
    severity: 'critical',
    message: `a pass's events held ${showValue(entry)}, which is no event (an object with a known kind, a cycle and an at): it is left out (a watcher or a stage of the cycle put it there)`,
    rolledBack: false,
  };
}
