/**
 * How a reader still reaches a store it cannot open read-only the usual way.
 * A WAL file needs its shared-memory file (`-shm`) even to be read; when that
 * cannot be created or grown (a folder the reader may not write, a full disk), the file is read
 * without one where no writer can be active:
 * - with no `-wal` file (a live writer keeps one), as immutable: the file
 *   itself holds everything;
 * - with a `-wal` file but no `-shm` (a live writer keeps both: its writer
 *   did not stop cleanly, e.g. `kill -9`, and the `-shm` was lost, or the
 *   files were copied without it), through the lockless `unix-none` VFS in
 *   exclusive locking mode, which indexes the log in this process's memory
 *   instead of a `-shm` file, so what the crashed writer committed is read
 *   too (`immutable` would ignore the log).
 * Neither takes a lock: a writer that starts while the file is read may
 * change it underneath (it marks the crashed sessions, it checkpoints).
 * A store file the reader may not write, or one on a full disk, is read the
 * same way from the start (see {@link unwritableFileRoute}).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { StoreError } from './storeError.js';
import { diskFull } from './storeFile.js';

/** Where to open `file` instead (a URI, and a pragma to run first), after a read-only open failed with `error`; rethrows `error` when no other way applies. */
export function readOnlyRoute(file: string, error: unknown): { uri: string; pragma?: string } {
  // On a full disk, side files left by an open that failed there cannot be grown either (a live writer's are grown already).
  if (error instanceof StoreError && error.code === 'SQLITE_FULL') return withoutSideFiles(file);
  const unwritable = error instanceof StoreError && (error.code === 'SQLITE_READONLY' || error.code === 'SQLITE_CANTOPEN');
  if (!unwritable || hasSideFiles(file)) throw error;
  return withoutSideFiles(file);
}

/**
 * Where to open a store file this user may not write, before trying the usual
 * way: that would create its missing `-wal` and `-shm` with the file's
 * read-only mode and leave them there, so a writer given the file back later
 * could not use them ("is read-only"). So on a full disk, where the `-shm`
 * it creates cannot be grown: the open fails and leaves both behind, owned by
 * the reader. Undefined when the file is writable on a disk with room, or has
 * both side files already (the usual way then creates none).
 */
export function unwritableFileRoute(file: string): { uri: string; pragma?: string } | undefined {
  try {
    accessSync(file, constants.W_OK);
  } catch {
    return hasSideFiles(file) ? undefined : withoutSideFiles(file);
  }
  // On a full disk the usual way would fail to grow the -shm it creates, and leave it and a -wal behind.
  return diskFull(file) && !hasSideFiles(file) ? withoutSideFiles(file) : undefined;
}

function hasSideFiles(file: string): boolean {
  return existsSync(`${file}-wal`) && existsSync(`${file}-shm`);
}

/** Immutable without a `-wal`, else the lockless VFS that indexes the log in memory: either way no file is created. */
function withoutSideFiles(file: string): { uri: string; pragma?: string } {
  const url = pathToFileURL(file).href;
  if (!existsSync(`${file}-wal`)) return { uri: `${url}?immutable=1` };
  requireReadableLog(file);
  return { uri: `${url}?vfs=unix-none`, pragma: 'PRAGMA locking_mode = EXCLUSIVE' };
}

/** A crashed writer's log that this user may not read is a {@link StoreError} saying so and what its owner can do. */
function requireReadableLog(file: string): void {
  try {
    accessSync(`${file}-wal`, constants.R_OK);
  } catch {
    throw new StoreError(
      `store: open: cannot read ${file}: its writer did not stop cleanly and left a write-ahead log, ${file}-wal, that this user may not read: let the store's owner fold the log into the file (sqlite3 ${file} 'PRAGMA wal_checkpoint(TRUNCATE)'), or make ${file}-wal readable`,
      'SQLITE_CANTOPEN',
    );
  }
}
