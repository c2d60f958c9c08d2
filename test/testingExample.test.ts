import test from 'ava';
import { map } from 'rxjs';
import { agentEvents, createTestAgent, goalStimulus, runMarbles } from '../streams/testing.js';

test('one whole cycle', (t) => {
  runMarbles((actual, expected) => t.deepEqual(actual, expected), ({ cold, expectObservable }, scheduler) => {
    const agent = createTestAgent(scheduler, { config: { maxCycles: 1 } });
    const input$ = cold('a 19ms |', { a: goalStimulus('Find moons of Mars') });
    expectObservable(agentEvents(agent, { inputs: [input$] }).pipe(map((e) => e.kind))).toBe('(spgorndan) 9ms (s|)', {
      s: 'session', p: 'perceived', g: 'goal', o: 'observation', r: 'orientation', n: 'plan', d: 'decision', a: 'action',
    });
  });
});
