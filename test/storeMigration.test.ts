import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { SCHEMA_VERSION } from '../sinks/storeSchema.js';
import { AgentConfig } from '../streams/config.js';
import { replaySession } from '../streams/replay.js';
import { goalStimulus } from '../streams/testing.js';
import { recordSession } from './helpers/recordSession.js';

/** A store as ooda-rx wrote it before tools' effects were recorded (schema version 1): a session of a few cycles, with no `effects` table. */
async function versionOneStore(t: { teardown(fn: () => void): void }): Promise<{ db: string; events: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-migration-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'old.db');
  const config = AgentConfig.parse({ seed: 3, heartbeatMs: 0, maxCycles: 4, stallThreshold: 1_000_000 });
  await recordSession(db, 'old', config, [goalStimulus('Find the moons of Mars', { criteria: 'zzqx' })]);
  const file = new Database(db);
  file.exec('DROP TABLE effects; PRAGMA user_version = 1');
  const { n } = file.prepare('SELECT count(*) AS n FROM events').get() as { n: number };
  file.close();
  return { db, events: n };
}

test('a reader reads a store of schema version 1 as it is, leaving it unchanged: its sessions, recorded without effects, replay', async (t) => {
  const { db, events } = await versionOneStore(t);
  const store = await SqliteStore.open(db, { access: 'read' });
  try {
    t.is(store.schemaVersion, 1);
    t.is((await store.sessions())[0]!.events, events);
    t.like(await replaySession(store, 'old'), { identical: true });
  } finally {
    await store.close();
  }
  const file = new Database(db, { readonly: true });
  t.is(file.pragma('user_version', { simple: true }), 1);
  t.is(file.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'effects'").pluck().get(), 0);
  file.close();
});

test('a writer migrates a store of schema version 1 forward, keeping its sessions and events', async (t) => {
  const { db, events } = await versionOneStore(t);
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    t.is(store.schemaVersion, SCHEMA_VERSION);
    t.is((await store.get<{ user_version: number }>('PRAGMA user_version'))!.user_version, SCHEMA_VERSION);
    t.is((await store.get<{ n: number }>('SELECT count(*) AS n FROM events'))!.n, events);
    t.is((await store.get<{ n: number }>('SELECT count(*) AS n FROM effects'))!.n, 0);
  } finally {
    await store.close();
  }
});
