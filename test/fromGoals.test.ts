import test from 'ava';
import { lastValueFrom, toArray } from 'rxjs';
import { fromGoals } from '../sources/goals.js';

test('fromGoals turns descriptions and goal objects into goal stimuli from its source', async (t) => {
  const out = await lastValueFrom(fromGoals(['Find moons of Mars', { description: 'Map orbits', priority: 200 }], 'app').pipe(toArray()));
  t.deepEqual(out, [
    { source: 'app', value: { type: 'goal', description: 'Find moons of Mars' } },
    { source: 'app', value: { type: 'goal', description: 'Map orbits', priority: 200 } },
  ]);
});

test('fromGoals refuses a single goal not in an array, saying what it takes', (t) => {
  t.throws(() => fromGoals('Find moons of Mars' as unknown as string[]), {
    instanceOf: TypeError,
    message: 'fromGoals: expected an array of goals (descriptions or { description, criteria?, priority? }), got "Find moons of Mars"',
  });
});
