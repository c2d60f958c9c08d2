/**
 * Store flags shared by the commands that work on a SQLite store (`--db`,
 * `--synchronous`) and a helper that opens the store (read-only unless asked) for a
 * command and always closes it.
 */
import { SqliteStore, storeFileProblem, type StoreOptions } from '../streams/index.js';
import { UsageError } from './cli.js';
import type { Flags } from './flags.js';

/** The store `ooda run` and the store commands use unless `--db` says otherwise. */
export const DEFAULT_DB = './ooda.db';

export const STORE_FLAGS = {
  db: { type: 'string', arg: 'FILE', help: `SQLite store (default ${DEFAULT_DB})` },
} as const satisfies Flags;

/** The `--synchronous` mode, checked whether or not a store is used; undefined when absent. */
export function synchronousFlag(raw: string | undefined): StoreOptions['synchronous'] {
  if (raw !== undefined && raw !== 'normal' && raw !== 'full') {
    throw new UsageError(`--synchronous: expected normal or full, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** Store options from the `--db` and `--synchronous` flags; `--db` must name a regular file, a new one or `:memory:`. */
export function storeOptions(db: string, synchronous: string | undefined): StoreOptions & { db: string } {
  if (db.trim() === '') throw new UsageError('--db: expected a file name (or :memory:)');
  const problem = storeFileProblem(db);
  if (problem) throw new UsageError(`--db: ${problem}: pass a regular file (or :memory:)`);
  const mode = synchronousFlag(synchronous);
  return { db, ...(mode ? { synchronous: mode } : {}) };
}

/** Opens the store (default read-only; a missing file is an error, never created), runs `work` on it and closes it, even when `work` fails. */
export async function withStore<T>(db: string | undefined, work: (store: SqliteStore) => Promise<T>, access: 'read' | 'existing' = 'read'): Promise<T> {
  const store = await SqliteStore.open(storeOptions(db ?? DEFAULT_DB, undefined).db, { access });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
