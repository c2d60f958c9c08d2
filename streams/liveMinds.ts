/**
 * One live run per mind. Two agents given the same `mind` and run at the same
 * time would interleave their passes over one state: each pass's checkpoint
 * and rollback would cut across the other's, both would work the same goals,
 * and their cycle counts would be one. So a run claims its agent's mind for as
 * long as it is live, and a second agent's run of it is refused, naming the
 * session that holds it; one after the other is fine.
 */
import type { Mind } from '../mind/mind.js';

/** The session of the live run of each mind being run. */
const live = new WeakMap<Mind, string>();

/** Claims the mind for a run of `session`; returns its release. Throws when another agent's run holds it. */
export function claimMind(mind: Mind, session: string): () => void {
  const holder = live.get(mind);
  if (holder !== undefined) {
    throw new Error(
      `this mind is being run by another agent (session ${JSON.stringify(holder)}) right now: two agents cannot run one mind at the same time; ` +
        'give each agent its own mind, or run this one once the other run has ended',
    );
  }
  live.set(mind, session);
  return () => {
    if (live.get(mind) === session) live.delete(mind);
  };
}
