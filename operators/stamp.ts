/**
 * stamp: turns drafts into events as they leave the agent, assigning `seq`
 * (strictly increasing from `firstSeq`) and `session`. Stamping at the exit,
 * not where events are made, keeps `seq` in emission order even when an
 * asynchronous tool delays a pass.
 *
 *   drafts:             --a--b--|
 *   stamp('s1', 1):     --A--B--|   (A.seq = 1, B.seq = 2)
 */
import { map, type OperatorFunction } from 'rxjs';
import type { AgentEvent, Draft } from '../streams/events.js';

export function stamp(session: string, firstSeq = 1): OperatorFunction<Draft, AgentEvent> {
  let seq = firstSeq - 1;
  return map((draft) => {
    const { kind, cycle, at, ...body } = draft;
    return { kind, seq: ++seq, session, cycle, at, ...body } as AgentEvent;
  });
}
