/**
 * Store errors: every SQLite driver error becomes a {@link StoreError} whose
 * message names the file, what the store was doing and what the user can do
 * about it (read-only, full, locked, not a database, …).
 */
import { diskFull } from './storeFile.js';

/** A store failure with a message a user can act on; `code` is SQLite's (e.g. SQLITE_READONLY) or the store's own (MISSING, SCHEMA, NO_SESSION, …). */
export class StoreError extends Error {
  override name = 'StoreError';
  constructor(
    message: string,
    readonly code: string,
    /** SQLite's own words, for an error the driver reported (`UNIQUE constraint failed: signals.id`); for a row refused as it was queued, what is wrong with it (`at is NaN, …`). */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Turns a driver error into a {@link StoreError} that says what happened to which file and what to do. */
export function translate(error: Error, file: string, doing: string): StoreError {
  if (error instanceof StoreError) return error;
  const driverCode = (error as Error & { code?: string }).code ?? 'SQLITE_ERROR';
  // SQLite reports a -shm file it cannot grow (opening a store in WAL mode, even to read it) as an I/O error, whatever the cause.
  const code = driverCode === 'SQLITE_IOERR' && diskFull(file) ? 'SQLITE_FULL' : driverCode;
  const detail = error.message.replace(/^SQLITE_\w+: /, '');
  const where = file === ':memory:' ? 'the in-memory store' : file;
  const hint: Record<string, string> = {
    SQLITE_READONLY: `${where} is read-only (${detail}): check the permissions of the file and its folder, or pass another --db`,
    SQLITE_FULL: `${where}: the disk or the database's size limit is full (${detail}): free space or pass another --db`,
    // Only ooda's own writers take the side file's lock; the store itself is held by a write transaction, which no ooda reader takes.
    SQLITE_BUSY:
      doing === 'lock'
        ? `${where} is locked by another process (${detail}): is another ooda running on it? Stop it or pass another --db`
        : `${where} is locked by another process (${detail}): a program holds a write transaction on it (an sqlite3 shell after BEGIN, say); end it, or pass another --db`,
    SQLITE_LOCKED: `${where} is locked (${detail}): is another ooda running on it? Stop it or pass another --db`,
    SQLITE_CANTOPEN: `cannot open ${where} (${detail}): check that its folder exists and is writable`,
    SQLITE_NOTADB: `${where} is not an SQLite database (${detail}): pass another --db`,
    SQLITE_CORRUPT: `${where} is corrupt (${detail}): restore it from a backup or pass another --db`,
    SQLITE_IOERR: `${where}: I/O error (${detail}): check the disk`,
  };
  return new StoreError(`store: ${doing}: ${hint[code] ?? `${where}: ${detail}`}`, code, detail);
}
