/**
 * Working memory holds notes: an entry keeps at most 400 characters of its
 * content, whatever made it. A goal with a very long description (up to a
 * megabyte fits on an input line) no longer copies it into memory, and into
 * every snapshot, with each observation.
 */
import test from 'ava';
import { goalSignal, runOnVirtualTime } from './mindFixtures.js';

test('a goal with a 190 000-character description leaves no memory entry longer than 400 characters', (t) => {
  const description = `Find moons of Mars ${'and more detail '.repeat(12_000)}`;
  const { events, mind } = runOnVirtualTime([goalSignal(description, { criteria: 'zzqx', stallThreshold: 1000 })], {
    config: { maxCycles: 12, loopDetection: { enabled: false } },
  });
  t.is(events.filter((e) => e.kind === 'decision').length, 12);
  const entries = mind.memory.all();
  t.true(entries.length > 0);
  t.deepEqual(entries.filter((e) => e.content.length > 400).map((e) => e.content.length), []);
  t.true(entries.some((e) => e.content.startsWith('observed 1 active goal(s); focus goal-1 "Find moons of Mars and more detail')));
  t.true(JSON.stringify(mind.memory.toJSON()).length < 50_000, 'the memory saved with a snapshot stays small');
});
