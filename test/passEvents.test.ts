import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { from, lastValueFrom, tap, type OperatorFunction } from 'rxjs';
import { toNdjson } from '../sinks/ndjson.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import type { EventRow } from '../sinks/storeSchema.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { AgentEvent } from '../streams/events.js';
import { replaySession } from '../streams/replay.js';
import { eventFromRow } from '../streams/storedState.js';
import { Persistence } from '../streams/session.js';
import { goalSignal, runOnVirtualTime } from './mindFixtures.js';

test('an entry a watcher leaves in a pass\'s events that is no event becomes a critical error naming it, and every event of the run is stored', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-pass-events-')), 'junk.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 3 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 'junk', config, log: () => undefined });
  const junk = [42, { note: 'no kind' }, { kind: 'action', at: 1 }];
  let pass = 0;
  const litter = (): OperatorFunction<Cycle, Cycle> => (cycle$) => cycle$.pipe(tap((cycle) => void cycle.events.push(junk[pass++ % junk.length] as never)));
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 'junk', watchers: [litter] });
  const events$ = agent.run({ inputs: [from([{ source: 'test', value: { type: 'goal', description: 'Find moons of Mars' } }])], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const events: AgentEvent[] = [];
  events$.subscribe((event) => events.push(event));
  const done = lastValueFrom(events$);
  events$.connect();
  await done;
  await persistence.close('done');

  const errors = events.filter((e): e is AgentEvent<'error'> => e.kind === 'error').map((e) => [e.severity, e.message]);
  t.deepEqual(errors.slice(0, 3), [
    ['critical', "a pass's events held 42, which is no event (an object with a known kind, a cycle and an at): it is left out (a watcher or a stage of the cycle put it there)"],
    ['critical', 'a pass\'s events held {"note":"no kind"}, which is no event (an object with a known kind, a cycle and an at): it is left out (a watcher or a stage of the cycle put it there)'],
    ['critical', 'a pass\'s events held {"kind":"action","at":1}, which is no event (an object with a known kind, a cycle and an at): it is left out (a watcher or a stage of the cycle put it there)'],
  ]);
  t.true(events.every((e) => typeof e.kind === 'string' && typeof e.cycle === 'number'), 'only events left the agent');
  const store = await SqliteStore.open(db, { access: 'read' });
  t.teardown(() => store.close());
  const { n } = (await store.get<{ n: number }>('SELECT count(*) AS n FROM events'))!;
  t.is(n, events.length, 'every emitted event is in the store');
});

test('an event with no JSON form (a BigInt, a circular value a custom stage recorded) is written as a critical error with its seq, the same on stdout and in the store, and the session replays identically', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-pass-events-')), 'unwritable.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 2 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 'unwritable', config, log: () => undefined });
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  // A watcher recording warnings whose message has no JSON form: a BigInt, then a circular value, by turns (counted per agent, for the replay).
  const unwritable = (): OperatorFunction<Cycle, Cycle> => {
    let pass = 0;
    return (cycle$) => cycle$.pipe(tap((cycle) => void cycle.events.push({ kind: 'warning', cycle: 1, at: 1, message: pass++ % 2 ? circular : 10n } as never)));
  };
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 'unwritable', watchers: [unwritable] });
  const events$ = agent.run({ inputs: [from([{ source: 'test', value: { type: 'goal', description: 'Find moons of Mars' } }])], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  let stdout = '';
  events$.subscribe(toNdjson(new Writable({ write: (chunk, _encoding, done) => ((stdout += String(chunk)), done()) })));
  const done = lastValueFrom(events$);
  events$.connect();
  await done;
  await persistence.close('done');

  const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as AgentEvent);
  const standIns = lines.filter((e): e is AgentEvent<'error'> => e.kind === 'error');
  t.true(standIns.length >= 2, stdout);
  t.like(standIns[0], { severity: 'critical', message: 'a warning event had no JSON form (Do not know how to serialize a BigInt): this error stands for it wherever events are written' });
  t.is(standIns[1]!.message, 'a warning event had no JSON form (Converting circular structure to JSON): this error stands for it wherever events are written');
  const store = await SqliteStore.open(db, { access: 'read' });
  t.teardown(() => store.close());
  const stored = (await store.all<EventRow>('SELECT * FROM events ORDER BY seq')).map((row) => JSON.stringify(eventFromRow(row)));
  t.deepEqual(stored, stdout.trimEnd().split('\n'), 'the store holds what stdout printed');
  const replayed = await replaySession(store, 'unwritable', { watchers: [unwritable] });
  t.like(replayed, { identical: true }, JSON.stringify(replayed));
});

test('record stamps an event with the current cycle, time and the kind it is given: a body\'s own cycle, at or kind (from a JS caller) does not override them', (t) => {
  const { events } = runOnVirtualTime([goalSignal('Find moons of Mars')], {
    config: { maxCycles: 2 },
    cycle: (stages, runtime) => (cycle$) =>
      cycle$.pipe(
        stages.observe,
        tap((cycle) => record(runtime, cycle, 'warning', { message: 'stamped', cycle: 999, at: -5, kind: 'action' } as never)),
      ),
  });
  const stamped = events.filter((e) => (e as { message?: string }).message === 'stamped');
  t.true(stamped.length > 0);
  for (const event of stamped) {
    t.is(event.kind, 'warning', 'the kind is the one given');
    t.true(event.cycle >= 0 && event.cycle <= 2, `cycle ${event.cycle} is the mind's`);
    t.true(event.at >= 0, `at ${event.at} is the scheduler's`);
  }
});
