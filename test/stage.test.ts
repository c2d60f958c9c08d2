import test from 'ava';
import { from, lastValueFrom, map, pipe, toArray, VirtualTimeScheduler } from 'rxjs';
import { stage } from '../operators/stage.js';
import type { Cycle } from '../streams/cycle.js';
import type { Stages } from '../streams/createAgent.js';
import { createTestAgent } from '../streams/testing.js';

const cycleOf = (n: number): Cycle => ({ signal: { type: 'tick', depth: n, meta: { source: 'test' } }, events: [] }) as unknown as Cycle;
const trail = (c: Cycle): string[] => ((c as unknown as { trail?: string[] }).trail ??= []);
const mark = (name: string) => (c: Cycle): Cycle => (trail(c).push(name), c);

test('consecutive stages run in order on each cycle, and cycles leave in the order they came even when a step waits on a promise', async (t) => {
  // The second cycle's async step settles first; it must still leave after the first.
  const slowFirst = (c: Cycle): Promise<Cycle> => new Promise((resolve) => setTimeout(() => resolve(mark('async')(c)), c.signal.depth === 0 ? 30 : 1));
  const out = await lastValueFrom(from([cycleOf(0), cycleOf(1), cycleOf(2)]).pipe(stage(mark('a')), stage(slowFirst), stage(mark('b')), toArray()));
  t.deepEqual(out.map((c) => c.signal.depth), [0, 1, 2]);
  t.true(out.every((c) => trail(c).join(' ') === 'a async b'));
});

test('another operator between stages splits the fused run without changing the result', async (t) => {
  const out = await lastValueFrom(from([cycleOf(0), cycleOf(1)]).pipe(stage(mark('a')), map(mark('veto-check')), stage(mark('b')), toArray()));
  t.deepEqual(out.map((c) => trail(c).join(' ')), ['a veto-check b', 'a veto-check b']);
});

test('a step that throws, or a promise that rejects, errors the stream (recover turns it into an event)', async (t) => {
  const boom = () => {
    throw new Error('boom');
  };
  await t.throwsAsync(lastValueFrom(from([cycleOf(0)]).pipe(stage(mark('a')), stage(boom))), { message: 'boom' });
  await t.throwsAsync(lastValueFrom(from([cycleOf(0)]).pipe(stage(() => Promise.reject(new Error('rejected'))))), { message: 'rejected' });
});

test('a step that is no function (a misspelt import) is refused as the stage is made, naming it, so createAgent throws instead of every pass failing where it reaches the step', (t) => {
  const cycle = (s: Stages) => pipe(s.observe, s.orient, s.decide, stage(undefined as never), s.act);
  t.throws(() => createTestAgent(new VirtualTimeScheduler(), { cycle }), { instanceOf: TypeError, message: 'stage: expected a step, a function (cycle) => cycle, got undefined' });
  t.throws(() => stage(5 as never), { instanceOf: TypeError, message: 'stage: expected a step, a function (cycle) => cycle, got 5' });
});
