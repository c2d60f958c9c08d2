/**
 * fromGoals: goals given on the command line (`--goal TEXT`, repeatable), as
 * stimuli that perceive validates like any other input.
 *
 *   fromGoals(['a', 'b']):  (ab|)
 */
import { from, type Observable } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import type { Stimulus } from '../streams/signals.js';

export function fromGoals(goals: readonly (string | { description: string; criteria?: string; priority?: number })[], source = 'cli'): Observable<Stimulus> {
  // A single goal passed as is (`fromGoals('Find moons')`) would fail deep inside with "goals.map is not a function".
  if (!Array.isArray(goals)) throw new TypeError(`fromGoals: expected an array of goals (descriptions or { description, criteria?, priority? }), got ${describeValue(goals)}`);
  return from(
    goals.map((goal): Stimulus => ({
      source,
      value: typeof goal === 'string' ? { type: 'goal', description: goal } : { type: 'goal', ...goal },
    })),
  );
}
