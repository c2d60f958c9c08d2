import test from 'ava';
import type { EventRow } from '../sinks/storeSchema.js';
import type { AgentEvent } from '../streams/events.js';
import { DivergenceCheck } from '../streams/replay.js';

const beat = (seq: number, beatNo = seq): AgentEvent => ({ kind: 'heartbeat', seq, session: 's', cycle: 0, at: 100 + seq, beat: beatNo });
const row = (event: AgentEvent): EventRow => {
  const { kind, seq, session, cycle, at, ...body } = event;
  return { kind, seq, session, cycle, at, body: JSON.stringify(body) };
};

function check(recorded: AgentEvent[], replayed: AgentEvent[], complete: boolean) {
  const divergence = new DivergenceCheck(recorded.map(row), complete);
  for (const event of replayed) divergence.push(event);
  return divergence.result();
}

test('the same events are no divergence, complete or not', (t) => {
  const events = [beat(1), beat(2), beat(3)];
  t.is(check(events, events, true), undefined);
  t.is(check(events, events, false), undefined);
});

test('the first differing event is reported with both sides as JSON; later differences are ignored', (t) => {
  const divergence = check([beat(1), beat(2), beat(3)], [beat(1), beat(2, 20), beat(3, 30)], true);
  t.deepEqual(divergence, { seq: 2, expected: JSON.stringify(beat(2)), got: JSON.stringify(beat(2, 20)) });
});

test('fewer replayed events than recorded is a divergence at the first missing one', (t) => {
  for (const complete of [true, false]) {
    t.deepEqual(check([beat(1), beat(2), beat(3)], [beat(1)], complete), { seq: 2, expected: JSON.stringify(beat(2)), got: '(no event)' });
  }
});

test('more replayed events than recorded: a divergence for a stopped session, not for one cut short by a crash', (t) => {
  t.deepEqual(check([beat(1)], [beat(1), beat(2)], true), { seq: 2, expected: '(no event)', got: JSON.stringify(beat(2)) });
  t.is(check([beat(1)], [beat(1), beat(2)], false), undefined);
});
