import test from 'ava';
import { defaultMindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { goalSignal, runOnVirtualTime } from './mindFixtures.js';

test('GoalBook.active(limit) gives the first `limit` of active(): priority, then age, then creation order', (t) => {
  const mind = new Mind({ config: defaultMindConfig() });
  // A fixed pseudo-random mix of priorities with many ties, some goals finished or suspended.
  let x = 7;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < 200; i++) {
    const goal = mind.addGoal({ description: `goal ${i}`, priority: next() % 6 * 50 });
    if (i % 7 === 0) mind.goals.update(goal, { status: i % 2 ? 'Completed' : 'Suspended' });
  }
  const all = mind.goals.active().map((g) => g.id);
  t.is(mind.goals.activeCount, all.length);
  for (const limit of [0, 1, 2, 10, 57, all.length, all.length + 5]) t.deepEqual(mind.goals.active(limit).map((g) => g.id), all.slice(0, limit), `limit ${limit}`);
});

test('an observation names the ten active goals of highest priority and counts them all', (t) => {
  const goals = Array.from({ length: 30 }, (_, i) => goalSignal(`Find zzqx number ${i}`, { criteria: `zzqx${i}`, priority: 100 + i, stallThreshold: 1_000_000 }));
  const { events } = runOnVirtualTime(goals, { config: { maxCycles: 1 } });
  const observation = events.find((e) => e.kind === 'observation') as { activeGoals: { priority: number }[]; activeCount: number } | undefined;
  t.is(observation?.activeCount, 30);
  t.deepEqual(observation?.activeGoals.map((g) => g.priority), [129, 128, 127, 126, 125, 124, 123, 122, 121, 120]);
});
