/**
 * A key named "__proto__" (JSON.parse makes it an own key) is refused like
 * any other key that cannot be taken, never dropped without a word: a goal's
 * or fact's is refused as an unrecognized key, and so is one at the top of a
 * sensor's value.
 */
import test from 'ava';
import { Readable } from 'node:stream';
import { VirtualTimeScheduler } from 'rxjs';
import { fromNdjson } from '../sources/ndjson.js';
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
