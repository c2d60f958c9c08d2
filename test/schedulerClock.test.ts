/**
 * A scheduler whose clock goes bad (now() gives NaN) stamped every event
 * with it: the store refused each one, working memory refused its entries,
 * and the cycle driver, which measures its bursts on the clock, scheduled
 * empty bursts for ever, so the run never ended. The agent now reads the
 * clock through a guard that holds the last good time and says so once.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, VirtualTimeScheduler } from 'rxjs';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { schedulerClock } from '../streams/schedulerClock.js';
import { toSqlite } from '../sinks/toSqlite.js';
import type { AgentEvent } from '../streams/events.js';
import { createTestAgent, goalStimulus } from '../streams/testing.js';

/** Clock readings after which the test gives up on a run that would spin for ever. */
const MAX_READS = 100_000;

test('a clock that gives NaN is said once, as an error event; the run goes on to its end with its times held at the last good one, and the store takes every event', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-scheduler-clock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = await SqliteStore.open(join(dir, 'a.db'));
  t.teardown(() => store.close());
  const scheduler = new VirtualTimeScheduler();
  let broken = false;
  let reads = 0;
  scheduler.now = () => {
    if (++reads > MAX_READS) throw new Error(`the clock was read ${MAX_READS} times: the run spins`);
    return broken ? NaN : 5000 + scheduler.frame;
  };
  const lines: string[] = [];
  const sink = toSqlite(store, { log: (line) => lines.push(line) });
  const agent = createTestAgent(scheduler, { config: { maxCycles: 3 } });
  const events$ = agent.run({ inputs: [from([goalStimulus('Find moons of Mars')])] });
  const events: AgentEvent[] = [];
  events$.subscribe((event) => {
    events.push(event);
    broken = true;
  });
  events$.subscribe(sink);
  events$.connect();
  scheduler.flush();
  await sink.flushed();

  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
  t.deepEqual([...new Set(events.map((event) => event.at))], [5000], 'every time is the last good one');
  const errors = events.filter((event) => event.kind === 'error').map((event) => (event as { message: string }).message);
  t.deepEqual(errors, ["the scheduler's clock gave NaN, not a time in ms: the agent's times stay at the last it gave, 5000, until it gives one again (said once)"]);
  t.deepEqual(lines, [], 'the store refused nothing');
  t.deepEqual((await store.events({})).map((row) => row.seq), events.map((event) => event.seq));
});

test('the guard passes finite times through, holds the last one (0 before any) while the clock gives none, and says so the first time only', (t) => {
  const readings: unknown[] = [undefined, 7, Infinity, 9, NaN];
  const said: string[] = [];
  const clock = schedulerClock({ now: () => readings.shift() as number, schedule: () => { throw new Error('not scheduled'); } }, (message) => said.push(message));
  t.deepEqual([clock(), clock(), clock(), clock(), clock()], [0, 7, 7, 9, 9]);
  t.deepEqual(said, ["the scheduler's clock gave undefined, not a time in ms: the agent's times stay at 0, since it gave none before, until it gives one again (said once)"]);
});
