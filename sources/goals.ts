/**
 * fromGoals: goals given on the command line (`--goal TEXT`, repeatable), as
 * stimuli that perceive validates like any other input.
 *
 *   fromGoals(['a', 'b']):  (ab|)
 */
import { from, type Observable } from 'rxjs';
import type { Stimulus } from '../streams/signals.js';

export function fromGoals(goals: readonly (string | { description: string; criteria?: string; priority?: number })[], source = 'cli'): Observable<Stimulus> {
  return from(
    goals.map((goal): Stimulus => ({
      source,
      value: typeof goal === 'string' ? { type: 'goal', description: goal } : { type: 'goal', ...goal },
    })),
  );
}
