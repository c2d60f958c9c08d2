import test from 'ava';
import { from, map } from 'rxjs';
import { agentEvents, createTestAgent, createTestScheduler, flushSettled, goalStimulus } from '../streams/testing.js';

test('flushSettled refuses a TestScheduler, whose expectObservable assertions it would never check, instead of letting a wrong marble pass', async (t) => {
  let checked = 0;
  const scheduler = createTestScheduler(() => checked++);
  const agent = createTestAgent(scheduler, { config: { maxCycles: 1 } });
  scheduler.expectObservable(agentEvents(agent, { inputs: [from([goalStimulus('Find moons of Mars')])] }).pipe(map((e) => e.kind))).toBe('not what happens');
  await t.throwsAsync(flushSettled(scheduler), {
    instanceOf: TypeError,
    message:
      'flushSettled: got a TestScheduler, which checks its expectObservable and expectSubscriptions assertions only in its own flush() or run(): they would never be checked. Use a VirtualTimeScheduler and assert on the events you collect',
  });
  t.is(scheduler.frame, 0, 'nothing ran');
  t.is(checked, 0);
});
