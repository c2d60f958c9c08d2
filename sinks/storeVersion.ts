/**
 * The store file's schema version (`PRAGMA user_version`) and its forward
 * migrations: what a file must be before a store is opened on it. A file
 * newer than this program, or with a version no ooda-rx writes, is refused; a
 * writer takes an older store (and migrates it) or an empty file, never
 * another program's database; a reader takes this program's version or an
 * older one, as it is. Each refusal is a {@link StoreError} naming the file.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StoreError } from './storeError.js';
import { MIGRATIONS, SCHEMA_VERSION } from './storeSchema.js';

/** What the checks need of a store's connection. */
export interface SchemaConnection {
  readonly file: string;
  get<T>(sql: string): Promise<T | undefined>;
  all<T>(sql: string): Promise<T[]>;
  run(sql: string): Promise<void>;
  /** Runs a script of several statements (a migration). */
  execScript(sql: string): Promise<void>;
}

/** The file's schema version, refused when it is newer than this program's or one no version writes (negative). */
async function schemaVersion(c: SchemaConnection): Promise<number> {
  const { user_version: version } = (await c.get<{ user_version: number }>('PRAGMA user_version'))!;
  if (version > SCHEMA_VERSION) {
    throw new StoreError(`store: open: ${c.file} has schema version ${version}, newer than this program's ${SCHEMA_VERSION}: upgrade ooda-rx`, 'SCHEMA');
  }
  if (version < 0) {
    throw new StoreError(`store: open: ${c.file} has schema version ${version} (PRAGMA user_version), which no ooda-rx writes: it is damaged or not an ooda-rx store; pass another --db`, 'SCHEMA');
  }
  return version;
}

/** How long a reader waits for the schema of a store its writer is creating, and how often it looks. */
const CREATION_WAIT_MS = 2000;
const CREATION_POLL_MS = 20;

/**
 * The file's schema version, refused when the file has none (it is not an
 * ooda-rx store). A reader, which cannot migrate, reads an older version as
 * it is: migrations only add tables. An empty database whose writer is
 * creating it (`writing()` says one holds its lock: `ooda run` on a new file
 * a moment ago) gets its schema waited for, up to {@link CREATION_WAIT_MS}.
 */
export async function requireSchema(c: SchemaConnection, writing?: () => Promise<boolean>): Promise<number> {
  let version = await schemaVersion(c);
  for (let waited = 0; version === 0 && writing && waited < CREATION_WAIT_MS; waited += CREATION_POLL_MS) {
    if ((await heldObjects(c)).length > 0 || !(await writing())) break;
    await new Promise((resolve) => setTimeout(resolve, CREATION_POLL_MS));
    version = await schemaVersion(c);
  }
  if (version === 0) {
    const held = await heldObjects(c);
    if (held.length > 0) throw foreignDatabase(c.file, held);
    throw new StoreError(`store: open: ${c.file} is not an ooda-rx store (it has no schema): pass another --db${missingLogHint(c.file)}`, 'SCHEMA');
  }
  await requireTables(c, version);
  return version;
}

/** The first few objects (tables, indexes, …) a database holds, in the order they were made. */
function heldObjects(c: SchemaConnection): Promise<{ type: string; name: string }[]> {
  return c.all<{ type: string; name: string }>('SELECT type, name FROM sqlite_master ORDER BY rowid LIMIT 4');
}

/** The error for a database of another program, naming what it holds. */
function foreignDatabase(file: string, held: { type: string; name: string }[]): StoreError {
  const named = held.slice(0, 3).map((r) => `${r.type} ${r.name}`).join(', ') + (held.length > 3 ? ', …' : '');
  return new StoreError(`store: open: ${file} is an SQLite database but not an ooda-rx store (it holds ${named}): ooda writes only its own stores or empty files; pass another --db`, 'SCHEMA');
}

/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Why an empty file may still be a store: it is in WAL mode (byte 18 of its
 * header is 2) with no write-ahead log beside it, as when a store's file is
 * copied without its `-wal`, where its writer (killed, or still running) keeps
 * what it committed until a checkpoint folds the log into the file.
 */
function missingLogHint(file: string): string {
  const header = Buffer.alloc(100);
  try {
    const fd = openSync(file, 'r');
    try {
      readSync(fd, header, 0, header.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
  const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
  if (!header.subarray(0, 16).equals(SQLITE_MAGIC) || header[18] !== 2 || (wal?.size ?? 0) > 0) return '';
  return `; or, if it is a copy of a store's file, copy the store's -wal file with it, as ${file}-wal: the file is in WAL mode, and what a writer commits stays in its -wal until a checkpoint`;
}

/** The tables the migrations up to `version` create (they only ever add tables). */
export function tablesOf(version: number): string[] {
  return Array.from(MIGRATIONS.slice(0, version).join('\n').matchAll(/CREATE TABLE (\w+)/g), (match) => match[1]!);
}

/**
 * A file whose version is ooda-rx's (≥ 1) must also hold that version's
 * tables: other programs number their own schemas with `user_version` too
 * (1 is common), and such a file would otherwise be taken as a store, switched
 * to WAL and then fail on a missing table.
 */
async function requireTables(c: SchemaConnection, version: number): Promise<void> {
  const held = new Set((await c.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((row) => row.name));
  const missing = tablesOf(version).filter((table) => !held.has(table));
  if (missing.length === 0) return;
  throw new StoreError(
    `store: open: ${c.file} is not an ooda-rx store: it has schema version ${version} (PRAGMA user_version) but lacks its table(s) ${missing.join(', ')}: it is damaged or another program's database; pass another --db`,
    'SCHEMA',
  );
}

/**
 * For a writer: the file must be an ooda-rx store this program can migrate.
 * `create` also takes an empty database (it becomes a store), never one that
 * holds tables of its own; `existing` (continuing a store) takes no empty one.
 * The version and the tables are read in one read transaction: a writer that
 * creates the store meanwhile (another `ooda run` on the same new file, while
 * this one checks it before waiting for the lock) is seen before or after,
 * never as tables without a version.
 */
export async function requireWritableSchema(c: SchemaConnection, access: 'create' | 'existing'): Promise<void> {
  if (access === 'existing') {
    await requireSchema(c);
    return;
  }
  await c.run('BEGIN');
  let found: { type: string; name: string }[];
  try {
    const version = await schemaVersion(c);
    if (version > 0) await requireTables(c, version);
    found = version > 0 ? [] : await heldObjects(c);
  } catch (error) {
    await c.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
  await c.run('COMMIT');
  if (found.length > 0) throw foreignDatabase(c.file, found);
}

/** Applies the missing migrations; also proves the file is writable (it always writes `user_version`). */
export async function migrate(c: SchemaConnection): Promise<void> {
  await c.run('BEGIN IMMEDIATE');
  try {
    const version = await schemaVersion(c);
    for (let v = version; v < SCHEMA_VERSION; v++) await c.execScript(MIGRATIONS[v]!);
    await c.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    await c.run('COMMIT');
  } catch (error) {
    await c.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
