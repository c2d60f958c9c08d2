/**
 * Snapshots that cannot be taken (a mind extension whose state does not
 * serialise), at exit, on the `save` command and on auto-save: nothing of the
 * run is lost and no save is reported that did not happen.
 *
 * - At exit, the run's signals and events are still written, the session ended
 *   and the store closed, and close rejects saying which snapshot failed. It
 *   used to close the store under the queued rows, losing them, while the sink
 *   retried against the closed handle forever.
 * - On `save` and auto-save, the signal is still recorded (marked
 *   `meta.snapshotFailed`), its pass reports the failure as a critical error,
 *   `save` says "not saved", and the session replays identically. The signal
 *   used to be left out of the replay log, the pass reported "onEnter failed"
 *   and then "saved", and a failing auto-save was retried, and reported, on
 *   every heartbeat.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, interval, lastValueFrom, map, take, toArray, VirtualTimeScheduler } from 'rxjs';
import { SqliteStore } from '../sinks/sqliteStore.js';
import type { MindExtension } from '../mind/mind.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { replaySession } from '../streams/replay.js';
import type { CommandHandler } from '../streams/runtime.js';
import type { Signal } from '../streams/signals.js';
import { Persistence } from '../streams/session.js';

/** An extension whose state stops serialising once `broken` is set. */
class Fragile implements MindExtension {
  readonly name = 'fragile';
  broken = false;
  toJSON(): unknown {
    return this.broken ? { count: 1n } : { count: 1 };
  }
  load(): void {}
}

test('an exit snapshot that cannot be taken still leaves every event stored and the store closed', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-exit-snapshot-')), 'store.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 3 });
  // A flush period longer than the test: every row is still queued when close is called.
  const persistence = await Persistence.open({ db, fresh: true, flushMs: 60_000 }, { session: 's1', config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 's1' });
  const fragile = new Fragile();
  agent.mind.registerExtension(fragile);
  const events$ = agent.run({ inputs: [from([{ source: 't', value: { type: 'goal', description: 'Find moons of Mars' } }])], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const emitted = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  const events = await emitted;
  fragile.broken = true;

  const error = await t.throwsAsync(persistence.close('done'));
  t.regex(error.message, /^session s1: the exit snapshot could not be taken \(.*BigInt.*\)/);
  t.is(persistence.sink.pending, 0, 'nothing is left queued against the closed store');

  const file = new Database(db, { readonly: true });
  try {
    t.is((file.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n, events.length);
    t.like(file.prepare('SELECT status, reason, cycles FROM sessions').get(), { status: 'ended', reason: 'done', cycles: 3 });
    t.deepEqual(file.prepare('SELECT reason FROM snapshots').all(), [{ reason: 'start' }]);
  } finally {
    file.close();
  }
});

/** Commands that break and mend `fragile` in the order the run takes them. */
function breakingCommands(fragile: Fragile): [string, CommandHandler][] {
  return [
    ['break', () => ((fragile.broken = true), 'broken')],
    ['mend', () => ((fragile.broken = false), 'mended')],
  ];
}

const command = (name: string) => ({ source: 't', value: { type: 'command', command: name } });

test('a save command whose snapshot cannot be taken is recorded, reported as not saved, and the session replays identically', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-save-snapshot-')), 'store.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 3 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 's1', config, log: () => undefined });
  const fragile = new Fragile();
  const commands = breakingCommands(fragile);
  const agent = createAgent({ ...persistence.agentOptions({ commands }), config, session: 's1' });
  agent.mind.registerExtension(fragile);
  const stimuli = [
    { source: 't', value: { type: 'goal', description: 'Find moons of Mars' } },
    command('break'),
    command('save'),
    command('mend'),
    command('save'),
  ];
  const events$ = agent.run({ inputs: [from(stimuli)], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const emitted = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  const events = await emitted;
  await persistence.close('done');

  const saves = events.filter((e): e is Extract<AgentEvent, { kind: 'command' }> => e.kind === 'command' && e.command === 'save');
  t.is(saves.length, 2);
  t.regex(saves[0]!.result, /^not saved at cycle \d+: the snapshot could not be taken/);
  t.regex(saves[1]!.result, /^saved at cycle \d+$/);
  const errors = events.filter((e) => e.kind === 'error');
  t.is(errors.length, 1, 'the failure is reported once, and not as a failed onEnter hook');
  t.like(errors[0], { severity: 'critical', rolledBack: false });
  t.regex((errors[0] as Extract<AgentEvent, { kind: 'error' }>).message, /^session s1: the save command's snapshot could not be taken \(.*BigInt.*\); nothing was saved/);
  t.is(errors[0]!.cycle, saves[0]!.cycle, 'on the save command\'s own pass');
  t.deepEqual(
    events.filter((e) => e.kind === 'session' && e.state === 'saved').map((e) => e.seq),
    [saves[1]!.seq - 1],
    'only the save that happened reports saved',
  );

  const file = new Database(db, { readonly: true });
  try {
    const saveSignals = file.prepare("SELECT body FROM signals WHERE type = 'command' AND body ->> '$.command' = 'save' ORDER BY id").all() as { body: string }[];
    t.is(saveSignals.length, 2, 'both save commands are in the replay log');
    t.regex(JSON.parse(saveSignals[0]!.body).meta.snapshotFailed, /^session s1: the save command's snapshot/);
    t.is(JSON.parse(saveSignals[1]!.body).meta.snapshotFailed, undefined);
    t.deepEqual(file.prepare('SELECT reason FROM snapshots ORDER BY id').all(), [{ reason: 'start' }, { reason: 'save command' }, { reason: 'exit' }]);
    // The failed snapshot refreshed no query table; the next one wrote them all.
    t.is((file.prepare("SELECT count(*) AS n FROM goals WHERE session = 's1'").get() as { n: number }).n, 1);
  } finally {
    file.close();
  }

  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    t.like(await replaySession(store, 's1', { commands }), { identical: true });
  } finally {
    await store.close();
  }
});

test('an auto-save whose snapshot cannot be taken is reported on its heartbeat and tried again autoSaveMs later; every heartbeat is recorded and the session replays identically', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-auto-save-snapshot-')), 'store.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, autoSaveMs: 250, maxCycles: 3 });
  const persistence = await Persistence.open({ db, fresh: true }, { session: 's1', config, log: () => undefined });
  const scheduler = new VirtualTimeScheduler();
  const agent = createAgent({ ...persistence.agentOptions(), config, session: 's1', scheduler });
  const fragile = new Fragile();
  agent.mind.registerExtension(fragile);
  const beats = interval(100, scheduler).pipe(
    take(10),
    map((i): Signal => ({ type: 'heartbeat', beat: i + 1, depth: 0, meta: { source: 'heartbeat' } })),
  );
  const events$ = agent.run({ signals: [beats], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  fragile.broken = true;
  const events: AgentEvent[] = [];
  events$.subscribe((event) => events.push(event));
  events$.connect();
  scheduler.flush();
  fragile.broken = false;
  await persistence.close('done');

  const errors = events.filter((e): e is Extract<AgentEvent, { kind: 'error' }> => e.kind === 'error');
  t.deepEqual(
    errors.map((e) => e.at),
    [300, 600, 900],
    'one failure per autoSaveMs, not one per heartbeat',
  );
  for (const error of errors) t.regex(error.message, /^session s1: the auto-save's snapshot could not be taken \(.*BigInt.*\)/);

  const file = new Database(db, { readonly: true });
  try {
    t.is((file.prepare("SELECT count(*) AS n FROM signals WHERE type = 'heartbeat'").get() as { n: number }).n, 10, 'every heartbeat is in the replay log');
    t.deepEqual(file.prepare('SELECT reason FROM snapshots ORDER BY id').all(), [{ reason: 'start' }, { reason: 'exit' }]);
  } finally {
    file.close();
  }
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    t.like(await replaySession(store, 's1'), { identical: true });
  } finally {
    await store.close();
  }
});
