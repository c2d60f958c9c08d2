import test from 'ava';
import { from, map, pipe, VirtualTimeScheduler } from 'rxjs';
import { Mind } from '../mind/mind.js';
import type { AgentOptions } from '../streams/agentOptions.js';
import { defaultConfig } from '../streams/config.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, stimulus } from '../streams/testing.js';

const reading = (sensor: string, value: unknown) => stimulus({ type: 'sensor', sensor, value });

function run(inputs: ReturnType<typeof stimulus>[], options: AgentOptions = {}): { events: AgentEvent[]; mind: Mind } {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, options);
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from(inputs)] }).subscribe((e) => events.push(e));
  scheduler.flush();
  return { events, mind: agent.mind };
}

const sensorEntries = (mind: Mind) => mind.memory.all().filter((e) => e.content.startsWith('sensor '));

test('many readings of one sensor leave one working-memory entry, holding the latest value; the other entries stay and nothing is consolidated', (t) => {
  const readings = Array.from({ length: 250 }, (_, i) => reading('vitals', { heapUsedMiB: i }));
  const { events, mind } = run([stimulus({ type: 'input', text: 'remember me' }), ...readings]);
  t.is(events.filter((e) => e.kind === 'sensor').length, 250, 'every reading is still an event');
  t.deepEqual(
    mind.memory.all().map((e) => e.content),
    ['input: remember me', 'sensor vitals = {"heapUsedMiB":249}'],
  );
  t.is(sensorEntries(mind)[0]!.key, 'sensor:vitals');
  t.false(events.some((e) => e.kind === 'consolidation'));
});

test('readings of two sensors leave two entries, each sensor’s latest', (t) => {
  const readings = Array.from({ length: 30 }, (_, i) => [reading('temp', 20 + i), reading('door', i % 2 === 0)]).flat();
  const { mind } = run(readings);
  t.deepEqual(
    sensorEntries(mind).map((e) => e.content),
    ['sensor temp = 49', 'sensor door = false'],
  );
});

test('a pass that is rolled back restores the sensor’s previous reading in working memory', (t) => {
  const { events, mind } = run([reading('temp', 1), reading('temp', 2), reading('temp', 3)], {
    cycle: (s) =>
      pipe(
        s.observe,
        map((cycle) => {
          if (cycle.signal.type === 'sensor' && cycle.signal.value === 3) throw new Error('broken after intake');
          return cycle;
        }),
        s.orient,
        s.decide,
        s.act,
      ),
  });
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', rolledBack: true, message: 'broken after intake' });
  const [entry, ...rest] = sensorEntries(mind);
  t.deepEqual(rest, []);
  t.like(entry, { content: 'sensor temp = 2', id: 2, key: 'sensor:temp' });
  mind.remember({ content: 'sensor temp = 4', symbols: [], kind: 'Observation', at: 9, relevance: 0.2, key: 'sensor:temp' });
  t.deepEqual(sensorEntries(mind).map((e) => e.content), ['sensor temp = 4'], 'the restored reading is replaced by the next one');
});

test('a keyed entry replaces without evicting, is journaled, and its key follows it out on eviction, removal and into a saved mind', (t) => {
  const mind = new Mind({ config: { ...defaultConfig(), workingMemoryCapacity: 3 } });
  const temp = (m: Mind, value: number) => m.remember({ content: `sensor temp = ${value}`, symbols: [], kind: 'Observation', at: value, relevance: 0.2, key: 'sensor:temp' });
  const note = (text: string, relevance: number) => mind.remember({ content: text, symbols: [], kind: 'Inference', at: 0, relevance });
  const contents = (m: Mind) => m.memory.all().map((e) => e.content);
  note('a', 0.1);
  temp(mind, 1);
  note('b', 0.9);
  mind.checkpoint();
  const before = mind.toJSON();
  temp(mind, 2);
  t.deepEqual(contents(mind), ['a', 'b', 'sensor temp = 2'], 'in a full memory the reading replaces its predecessor; nothing is evicted');
  mind.rollback();
  t.deepEqual(mind.toJSON(), before, 'rollback restores the previous reading in its place');

  note('c', 0.9);
  note('e', 0.1);
  t.deepEqual(contents(mind), ['b', 'c', 'e'], 'the reading is evicted like any low-relevance entry');
  const t3 = temp(mind, 3);
  t.deepEqual(contents(mind), ['b', 'c', 'sensor temp = 3'], 'no reading left to replace: the usual eviction');
  mind.memory.remove(new Set([t3.id]));
  temp(mind, 4);
  t.deepEqual(contents(mind), ['b', 'c', 'sensor temp = 4'], 'no reading left to replace after a removal: nothing else goes');

  mind.memory.remove(new Set([mind.memory.all()[0]!.id]));
  const restored = Mind.fromJSON(mind.toJSON(), { config: mind.config });
  temp(restored, 5);
  t.deepEqual(contents(restored), ['c', 'sensor temp = 5'], 'a restored mind replaces the saved reading');
});
