/**
 * Opening a store file as a writer for the length of some work, closed after it whatever happens.
 */
import { SqliteStore } from '../../sinks/sqliteStore.js';

export async function withStore<T>(db: string, use: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
