import test from 'ava';
import fc from 'fast-check';
import { lastValueFrom, of, toArray } from 'rxjs';
import { createTestAgent } from '../streams/testing.js';
import { asyncScheduler } from 'rxjs';

const lineArbitrary = fc.oneof(
  fc.string(),
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({ type: fc.constantFrom('goal', 'fact', 'input', 'sensor', 'command', 'tick', 'nope'), description: fc.string(), text: fc.string(), priority: fc.integer({ min: -10, max: 300 }) }).map((v) => JSON.stringify(v)),
);

test('arbitrary strings and JSON values as input lines never error the stream, and each line yields exactly one outcome', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(lineArbitrary.filter((l) => !l.includes('\n') && l.trim().length > 0), { maxLength: 30 }), async (lines) => {
      const agent = createTestAgent(asyncScheduler, { config: { maxCycles: 3 } });
      const stimuli = lines.map((text, i) => ({ source: 'prop', line: i + 1, text }));
      const events$ = agent.run({ inputs: [of(...stimuli)] });
      const all = lastValueFrom(events$.pipe(toArray()));
      events$.connect();
      const events = await all;
      const outcomes = events.filter((e) => (e.kind === 'perceived' || e.kind === 'rejected') && e.source === 'prop');
      const lineNumbers = outcomes.map((e) => (e as { line?: number }).line).sort((a, b) => a! - b!);
      t.deepEqual(lineNumbers, lines.map((_, i) => i + 1));
      t.is(events.at(-1)?.kind, 'session');
    }),
    { numRuns: 60 },
  );
});
