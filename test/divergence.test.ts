import test from 'ava';
import type { EventRow } from '../sinks/storeSchema.js';
import type { AgentEvent } from '../streams/events.js';
import { DivergenceCheck } from '../streams/divergenceCheck.js';

const beat = (seq: number, beatNo = seq): AgentEvent => ({ kind: 'heartbeat', seq, session: 's', cycle: 0, at: 100 + seq, beat: beatNo });
const row = (event: AgentEvent): EventRow => {
  const { kind, seq, session, cycle, at, ...body } = event;
  return { kind, seq, session, cycle, at, body: JSON.stringify(body) };
};
const beats = (n: number): AgentEvent[] => Array.from({ length: n }, (_, i) => beat(i + 1));

/** The recorded events as pages of `size` rows, counting the pages read. */
function pages(recorded: AgentEvent[], size: number, read = { pages: 0 }): AsyncIterable<EventRow[]> {
  return (async function* () {
    for (let i = 0; i < recorded.length; i += size) {
      read.pages++;
      yield recorded.slice(i, i + size).map(row);
    }
  })();
}

/** Checks replayed against recorded events read `pageSize` at a time, settling every `settleEvery` replayed events. */
async function check(recorded: AgentEvent[], replayed: AgentEvent[], complete: boolean, pageSize = 1000, settleEvery = Infinity) {
  const divergence = new DivergenceCheck(pages(recorded, pageSize), complete);
  for (const [i, event] of replayed.entries()) {
    divergence.push(event);
    if ((i + 1) % settleEvery === 0) await divergence.settle();
  }
  return { divergence: await divergence.result(), compared: divergence.compared };
}

test('the same events are no divergence, complete or not', async (t) => {
  const events = [beat(1), beat(2), beat(3)];
  t.deepEqual(await check(events, events, true), { divergence: undefined, compared: 3 });
  t.deepEqual(await check(events, events, false), { divergence: undefined, compared: 3 });
});

test('the first differing event is reported with both sides as JSON; later differences are ignored', async (t) => {
  const { divergence } = await check([beat(1), beat(2), beat(3)], [beat(1), beat(2, 20), beat(3, 30)], true);
  t.deepEqual(divergence, { seq: 2, expected: JSON.stringify(beat(2)), got: JSON.stringify(beat(2, 20)) });
});

test('fewer replayed events than recorded is a divergence at the first missing one', async (t) => {
  for (const complete of [true, false]) {
    t.deepEqual((await check([beat(1), beat(2), beat(3)], [beat(1)], complete)).divergence, { seq: 2, expected: JSON.stringify(beat(2)), got: '(no event)' });
  }
});

test('an event missing from the middle of the recording (deleted by hand) is the divergence, at its seq: no event recorded there; one recorded twice, at the duplicate', async (t) => {
  const replayed = beats(4);
  const missing = await check([beat(1), beat(2), beat(4)], replayed, true);
  t.deepEqual(missing.divergence, { seq: 3, expected: '(no event)', got: JSON.stringify(beat(3)) });
  const extra = await check([beat(1), beat(2), beat(2), beat(3), beat(4)], replayed, true);
  t.deepEqual(extra.divergence, { seq: 2, expected: JSON.stringify(beat(2)), got: '(no event)' });
});

test('more replayed events than recorded: a divergence for a stopped session, not for one cut short by a crash', async (t) => {
  t.deepEqual((await check([beat(1)], [beat(1), beat(2)], true)).divergence, { seq: 2, expected: '(no event)', got: JSON.stringify(beat(2)) });
  t.deepEqual(await check([beat(1)], [beat(1), beat(2)], false), { divergence: undefined, compared: 1 });
});

test('recorded events are read a page at a time as the replay needs them; every outcome is the same whatever the paging', async (t) => {
  const recorded = beats(50);
  const late = recorded.map((e) => (e.seq === 47 ? beat(47, 470) : e));
  for (const [pageSize, settleEvery] of [[1, 1], [3, 1], [7, 10], [10, 7], [50, 50], [64, 3]] as const) {
    const paged = (replayed: AgentEvent[], complete = true) => check(recorded, replayed, complete, pageSize, settleEvery);
    t.deepEqual(await paged(recorded), { divergence: undefined, compared: 50 });
    t.like((await paged(late)).divergence, { seq: 47, got: JSON.stringify(beat(47, 470)) });
    t.like((await paged(recorded.slice(0, 33))).divergence, { seq: 34, got: '(no event)' });
    t.like((await paged([...recorded, beat(51)])).divergence, { seq: 51, expected: '(no event)' });
    t.deepEqual(await paged([...recorded, beat(51)], false), { divergence: undefined, compared: 50 });
  }
  const read = { pages: 0 };
  const divergence = new DivergenceCheck(pages(recorded, 10, read), true);
  for (const event of recorded.slice(0, 25)) divergence.push(event);
  t.is(read.pages, 0, 'nothing is read before the replay settles');
  await divergence.settle();
  t.is(read.pages, 3, 'settling reads the pages the replayed events need, no more');
});
