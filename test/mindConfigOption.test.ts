import test from 'ava';
import { Mind } from '../mind/mind.js';
import type { MindConfig } from '../mind/config.js';

/** new Mind with options an untyped (JavaScript) caller might pass. */
const mind = (options: Record<string, unknown>) => () => new Mind(options as { config?: MindConfig; seed?: number });

test('new Mind refuses a bad config or seed, naming it, instead of failing at the first memory entry', (t) => {
  t.throws(mind({ config: { workingMemoryCapacity: 0 } }), { instanceOf: TypeError, message: 'new Mind: config.workingMemoryCapacity: expected a number > 0, got 0' });
  t.throws(mind({ config: { tools: { shellTimeoutMs: -1 } } }), { message: 'new Mind: config.tools.shellTimeoutMs: expected a number >= 0, got -1' });
  t.throws(mind({ config: { stallThreshold: '6' } }), { message: 'new Mind: config.stallThreshold: expected number, got "6"' });
  t.throws(mind({ seed: NaN }), { message: 'new Mind: seed must be a whole number (got NaN)' });
  t.throws(mind({ seed: '7' }), { message: 'new Mind: seed must be a whole number (got "7")' });
});

test('new Mind completes a partial config with its defaults and keeps the keys it does not know (the agent\'s)', (t) => {
  const m = new Mind({ config: { workingMemoryCapacity: 3, maxCycles: 9 } as unknown as MindConfig });
  t.is(m.memory.capacity, 3);
  t.is(m.config.stallThreshold, 6);
  t.is(m.config.tools.questionTimeoutMs, 60_000);
  t.is((m.config as unknown as { maxCycles: number }).maxCycles, 9);
  for (let i = 0; i < 5; i++) m.remember({ content: `note ${i}`, symbols: [], kind: 'Observation', at: i, relevance: 0.5 });
  t.is(m.memory.size, 3, 'a full memory evicts');
});
