/**
 * A writer checks a store file before waiting for its lock (it refuses
 * another program's database without leaving a `-lock` beside it). When
 * another `ooda run` creates the store on the same new file meanwhile, the
 * check must see the file before or after that creation, never its tables
 * without their schema version: four `ooda run` started at once on a new file
 * refused one of them as "an SQLite database but not an ooda-rx store".
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { MIGRATIONS, SCHEMA_VERSION } from '../sinks/storeSchema.js';
import { requireWritableSchema, type SchemaConnection } from '../sinks/storeVersion.js';

function connect(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db: sqlite3.Database = new sqlite3.Database(file, mode, (error) => (error ? reject(error) : resolve(db)));
  });
}

function run(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
}

/** A read-only connection to `file` whose first read (the schema version) lets `meanwhile` run before it answers. */
function checkingConnection(file: string, db: sqlite3.Database, meanwhile: () => Promise<void>): SchemaConnection {
  let first = true;
  return {
    file,
    get: <T>(sql: string) =>
      new Promise<T | undefined>((resolve, reject) => db.get(sql, (error: Error | null, row: T | undefined) => (error ? reject(error) : resolve(row)))).then(async (row) => {
        if (first) (first = false), await meanwhile();
        return row;
      }),
    all: <T>(sql: string) => new Promise<T[]>((resolve, reject) => db.all(sql, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows)))),
    run: (sql) => run(db, sql),
    execScript: (sql) => run(db, sql),
  };
}

test('a new file that another writer makes a store between the check\u2019s reads is still taken, not refused as a foreign database', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ooda-race-')), 'new.db');
  writeFileSync(file, '');
  // The other writer, as SqliteStore.open does it: WAL first, then the schema in one transaction, committed while the check runs.
  const other = await connect(file, sqlite3.OPEN_READWRITE);
  await run(other, 'PRAGMA journal_mode = WAL');
  await run(other, `BEGIN IMMEDIATE; ${MIGRATIONS.join('\n')}; PRAGMA user_version = ${SCHEMA_VERSION}`);
  const reader = await connect(file, sqlite3.OPEN_READONLY);
  try {
    await t.notThrowsAsync(requireWritableSchema(checkingConnection(file, reader, () => run(other, 'COMMIT')), 'create'));
    // The check ended its read: the file now reads as the store the other writer committed.
    const version = await new Promise<number>((resolve, reject) =>
      reader.get('PRAGMA user_version', (error: Error | null, row: { user_version: number }) => (error ? reject(error) : resolve(row.user_version))),
    );
    t.is(version, SCHEMA_VERSION);
  } finally {
    await new Promise<void>((resolve) => reader.close(() => resolve()));
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});
