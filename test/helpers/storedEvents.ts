/**
 * How many events a store file holds, read from outside the process writing
 * it (better-sqlite3, read-only): for polling a live run with `until`.
 */
import Database from 'better-sqlite3';

/** The count as text, or '' while the store has no schema yet. */
export function storedEventCount(db: string): string {
  try {
    const file = new Database(db, { readonly: true });
    try {
      return String((file.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n);
    } finally {
      file.close();
    }
  } catch {
    return '';
  }
}
