/**
 * A replay compares the mind it reaches with each snapshot its run saved
 * after the one it starts from, at the point the snapshot was taken.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SnapshotRow } from '../sinks/storeSchema.js';
import { AgentConfig } from '../streams/config.js';
import { replaySession } from '../streams/replay.js';
import { firstDifference, NO_VALUE } from '../streams/snapshotCheck.js';
import { factStimulus, goalStimulus, stimulus } from '../streams/testing.js';
import { runCli } from './helpers/cli.js';
import { recordSession } from './helpers/recordSession.js';
import { withStore } from './helpers/withStore.js';

const config = AgentConfig.parse({ seed: 4, heartbeatMs: 0, maxCycles: 3, stallThreshold: 1_000_000 });

/** A session with a goal, facts before and after a `save` command, and its exit snapshot; its snapshots. */
async function recordWithSave(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'replay-snapshots-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'a.db');
  await recordSession(db, 'rec', config, [
    goalStimulus('Find the moons of Mars', { criteria: 'zzqx' }),
    factStimulus('Mars', 'has moon', 'Phobos'),
    stimulus({ type: 'command', command: 'save' }),
    factStimulus('Mars', 'has moon', 'Deimos'),
  ]);
  const snapshots = await withStore(db, (store) => store.all<SnapshotRow>("SELECT * FROM snapshots WHERE session = 'rec' ORDER BY id"));
  return { db, snapshots };
}

test('a session with a save mid-run replays identically: each snapshot is compared with the mind as the save\'s pass began, and the exit one with the mind at the end', async (t) => {
  const { db, snapshots } = await recordWithSave(t);
  t.deepEqual(
    snapshots.map((s) => s.reason),
    ['start', 'save command', 'exit'],
  );
  t.not(snapshots[1]!.state, snapshots[2]!.state, 'the two compared snapshots hold different minds');
  t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true });
});

test('a snapshot edited in the store is a divergence naming it, why it was taken, and the first field that differs', async (t) => {
  const { db, snapshots } = await recordWithSave(t);
  const save = snapshots[1]!;
  await withStore(db, (store) => store.run("UPDATE snapshots SET state = json_set(state, '$.cycle', 99) WHERE id = ?", [save.id]));
  const result = await withStore(db, (store) => replaySession(store, 'rec'));
  t.like(result, { identical: false, stateDivergence: { snapshot: { id: save.id, reason: 'save command', cycle: save.cycle }, path: '.cycle', expected: '99', got: String(save.cycle) } });
  const cli = await runCli(['replay', '--db', db]);
  t.is(cli.code, 1);
  t.regex(cli.stdout, new RegExp(`^divergence in session rec: its \\d+ event\\(s\\) are identical, but the mind differs from snapshot ${save.id} \\(save command, cycle ${save.cycle}\\) at \\.cycle\\n  expected: 99\\n  got:      ${save.cycle}\\n$`));
});

test('firstDifference: the first path where two JSON values differ, depth first, with both values or (none)', (t) => {
  t.is(firstDifference({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }, ''), undefined);
  t.deepEqual(firstDifference({ a: [1, { b: 'x' }], c: 1 }, { a: [1, { b: 'y' }], c: 2 }, ''), { path: '.a.1.b', expected: '"x"', got: '"y"' });
  t.deepEqual(firstDifference({ a: 1 }, { a: 1, z: [] }, ''), { path: '.z', expected: NO_VALUE, got: '[]' });
  t.deepEqual(firstDifference({ a: 1, z: null }, { a: 1 }, ''), { path: '.z', expected: 'null', got: NO_VALUE });
  t.deepEqual(firstDifference({ a: [1] }, { a: { 0: 1 } }, ''), { path: '.a', expected: '[1]', got: '{"0":1}' });
  t.deepEqual(firstDifference(1, 2, ''), { path: '.', expected: '1', got: '2' });
});

test('replay of the latest session, when no session has a snapshot left (deleted by hand), says the session has none to start from', async (t) => {
  const { db } = await recordWithSave(t);
  await withStore(db, (store) => store.run('DELETE FROM snapshots'));
  const cli = await runCli(['replay', '--db', db]);
  t.is(cli.code, 1);
  t.regex(cli.stderr, /session rec has no snapshot to start from/);
});
