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

test('new Mind refuses an option it does not take (a misspelt tools) and tools it cannot iterate, naming them, instead of a mind without the tools or "tools is not iterable"', (t) => {
  t.throws(mind({ tool: [] }), { instanceOf: TypeError, message: 'new Mind takes no option "tool" (it takes config, tools, seed)' });
  t.throws(mind({ tools: 5 }), { instanceOf: TypeError, message: 'new Mind: tools must be an iterable of tools, e.g. builtinTools() (got 5)' });
  t.throws(mind({ tools: 'kg_query' }), { instanceOf: TypeError, message: 'new Mind: tools must be an iterable of tools, e.g. builtinTools() (got "kg_query")' });
  t.throws(() => new Mind(null as never), { instanceOf: TypeError, message: 'new Mind takes an object of options (config, tools, seed) (got null)' });
  t.is(new Mind({ tools: new Set() }).tools.size, 0, 'any iterable will do');
});
