/**
 * The goal part of `Mind.stateHash` (state-aware loop detection): every status
 * change of a goal changes it, however the statuses are spelled.
 */
import test from 'ava';
import { GoalStatus } from '../mind/goals.js';
import { Mind } from '../mind/mind.js';

test('every change of a goal\u2019s status changes the state hash, and changing it back restores it', (t) => {
  const statuses = GoalStatus.options;
  for (const from of statuses) {
    for (const to of statuses) {
      if (from === to) continue;
      const mind = new Mind({ seed: 1 });
      const goal = mind.addGoal({ description: 'Find moons of Mars', criteria: 'moon', priority: 100 });
      mind.goals.update(goal, { status: from });
      const before = mind.stateHash();
      mind.goals.update(mind.goals.get(goal.id)!, { status: to });
      t.not(mind.stateHash(), before, `${from} -> ${to}`);
      mind.goals.update(mind.goals.get(goal.id)!, { status: from });
      t.is(mind.stateHash(), before, `${from} -> ${to} -> ${from}`);
    }
  }
});
