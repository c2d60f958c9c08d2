/**
 * stamp: turns drafts into events as they leave the agent, assigning `seq`
 * (strictly increasing from `firstSeq`) and `session`. Stamping at the exit,
 * not where events are made, keeps `seq` in emission order even when an
 * asynchronous tool delays a pass.
 *
 *   drafts:             --a--b--|
 *   stamp('s1', 1):     --A--B--|   (A.seq = 1, B.seq = 2)
 *
 * A `firstSeq` that is no whole number ≥ 0, or a blank `session`, throws, naming it.
 */
import { map, type OperatorFunction } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { checkNumberOption, wholeNumber } from '../mind/optionCheck.js';
import type { AgentEvent, Draft } from '../streams/events.js';

export function stamp(session: string, firstSeq = 1): OperatorFunction<Draft, AgentEvent> {
  // A seq of NaN or 1.5 would be written as null or refused by the store, the session as whatever it was.
  checkNumberOption('stamp', 'firstSeq', firstSeq, wholeNumber(0), 'a whole number ≥ 0');
  if (typeof session !== 'string' || session.trim() === '') throw new TypeError(`stamp session: expected a non-empty string, got ${describeValue(session)}`);
  let seq = firstSeq - 1;
  return map((draft) => stampEvent(draft, ++seq, session));
}

/**
 * The function behind {@link stamp}: the event for a draft, with its `seq` and
 * `session`. A draft that carries its own (an event of the run copied into a
 * later pass by a watcher) is stamped all the same: its old `seq` would repeat
 * one already written, and the store refuses a repeated seq.
 */
export function stampEvent(draft: Draft, seq: number, session: string): AgentEvent {
  // One copy per event: assigning the draft over the head keeps kind, cycle and at in their places.
  const event = Object.assign({ kind: draft.kind, seq, session, cycle: draft.cycle, at: draft.at }, draft) as AgentEvent;
  event.seq = seq;
  event.session = session;
  return event;
}
