/**
 * A key named "__proto__" (JSON.parse makes it an own key) is refused or
 * warned about like any other key that cannot be taken, never dropped
 * without a word: a goal's or fact's is refused as an unrecognized key, and
 * so is one at the top of a sensor's value; one in the loopDetection
 * settings is warned about as no setting, like a misspelt one.
 */
import test from 'ava';
import { Readable } from 'node:stream';
import { VirtualTimeScheduler } from 'rxjs';
import { resolveLoopConfig } from '../mind/loopConfig.js';
import { fromNdjson } from '../sources/ndjson.js';
import { resolveConfig } from '../streams/config.js';
import type { AgentOptions } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, flushSettled } from '../streams/testing.js';

/** Runs an agent (one cycle at most) over NDJSON `lines` on virtual time; every event. */
async function runLines(lines: string[], options: AgentOptions = {}): Promise<AgentEvent[]> {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { ...options, config: { maxCycles: 1, ...options.config } });
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [fromNdjson(Readable.from([lines.map((line) => `${line}\n`).join('')]))] }).subscribe((e) => events.push(e));
  await flushSettled(scheduler);
  return events;
}

test('a sensor value with a "__proto__" key at its top is rejected naming it, as a goal\'s is; one deeper down is data, kept; the next lines are taken in', async (t) => {
  const events = await runLines([
    '{"type":"sensor","sensor":"device","value":{"__proto__":{"fw":"1.2"},"temp":21}}',
    '{"type":"sensor","sensor":"device","value":{"nested":{"__proto__":{"fw":"1.2"}},"temp":22}}',
    '{"type":"goal","description":"Find moons of Mars","__proto__":{"priority":1}}',
    '{"type":"sensor","sensor":"device","value":{"temp":23}}',
  ]);
  t.deepEqual(
    events.flatMap((e) => (e.kind === 'rejected' ? [[e.line, e.reason]] : [])),
    [
      [1, 'invalid sensor signal: value.__proto__: Unrecognized key: "__proto__" (an object parsed from the value would drop it, and its data with it): rename it'],
      [3, 'invalid goal signal: __proto__: Unrecognized key: "__proto__"'],
    ],
  );
  t.deepEqual(
    events.flatMap((e) => (e.kind === 'sensor' ? [JSON.stringify(e.value)] : [])),
    ['{"nested":{"__proto__":{"fw":"1.2"}},"temp":22}', '{"temp":23}'],
  );
});

test('a "__proto__" key in the loopDetection settings is warned about as no setting, as is a name every object inherits (toString); loop detection runs on', async (t) => {
  const loopDetection = JSON.parse('{"__proto__":{"windowSize":3},"toString":1,"windowSiz":3}') as Record<string, unknown>;
  const events = await runLines(['{"type":"goal","description":"Find moons of Mars"}'], { config: { loopDetection } });
  t.deepEqual(
    events.flatMap((e) => (e.kind === 'warning' ? [e.message] : [])),
    ['loopDetection.__proto__ is not a setting; ignored', 'loopDetection.toString is not a setting; ignored', 'loopDetection.windowSiz is not a setting; ignored'],
  );
  t.false(events.some((e) => e.kind === 'error'), 'the loop watcher is not dropped');
});

test('a "__proto__" key in the loopDetection settings of a config layer survives the merge with another layer, to be warned about', (t) => {
  const config = resolveConfig([
    { origin: 'environment', values: { loopDetection: { windowSize: 7 } } },
    { origin: 'ooda.json', values: JSON.parse('{"loopDetection":{"__proto__":{"windowSize":3}}}') as Record<string, unknown> },
  ]);
  const { config: loops, warnings } = resolveLoopConfig(config.loopDetection);
  t.is(loops.windowSize, 7, 'the window is the one set, not one inherited through the key');
  t.deepEqual(warnings, [{ key: '__proto__', message: 'loopDetection.__proto__ is not a setting; ignored' }]);
});
