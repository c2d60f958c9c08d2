import test from 'ava';
import { agentEvents, createTestAgent, factStimulus, goalStimulus, pick, runMarbles } from '../streams/testing.js';

test('one whole cycle on virtual time: a goal is perceived, observed, oriented, planned, decided, acted on and completed', (t) => {
  runMarbles(
    (actual, expected) => t.deepEqual(actual, expected),
    ({ cold, expectObservable }, scheduler) => {
      const agent = createTestAgent(scheduler, { config: { maxCycles: 1 } });
      const input$ = cold('a 9ms b 19ms |', { a: factStimulus('Mars', 'has moon', 'Phobos'), b: goalStimulus('Find moons of Mars') });
      const events$ = agentEvents(agent, { inputs: [input$] }).pipe(pick('cycle', 'tool', 'status', 'progress'));
      expectObservable(events$).toBe('(spf) 5ms (pgornaxyqc) 8ms (z|)', {
        s: { kind: 'session', cycle: 0 },
        p: { kind: 'perceived', cycle: 0 },
        f: { kind: 'fact', cycle: 0 },
        g: { kind: 'goal', cycle: 0, status: 'Active' },
        o: { kind: 'observation', cycle: 0 },
        r: { kind: 'orientation', cycle: 0 },
        n: { kind: 'plan', cycle: 0, status: 'Active' },
        a: { kind: 'decision', cycle: 1, tool: 'kg_query' },
        x: { kind: 'action', cycle: 1, tool: 'kg_query', status: 'ok', progress: 'completed' },
        y: { kind: 'goal', cycle: 1, status: 'Completed' },
        q: { kind: 'plan', cycle: 1, status: 'Active' },
        c: { kind: 'plan', cycle: 1, status: 'Completed' },
        z: { kind: 'session', cycle: 1 },
      });
    },
  );
});
