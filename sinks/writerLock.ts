/**
 * WriterLock: one writing process per store file. A process that writes a
 * store (`ooda run`, `resume`, `consolidate`) holds an exclusive SQLite lock
 * on a side file, `FILE-lock` (beside the real file), for as long as it has
 * the store open. Readers (`sessions`, `events`, `replay`, `recall`) never
 * take it, so a store can be read while an agent writes it.
 *
 * SQLite's own locks on the store last only as long as each transaction, so
 * they cannot keep a second writer from taking over a session that is still
 * running; this lock lasts as long as the writer. The operating system drops
 * it when the process ends in any way, `kill -9` included, so a crashed run
 * never leaves a stale lock behind. The side file is empty and stays after the
 * run (deleting it while a writer waits for it would let two writers in).
 *
 * The lock is keyed on the store's resolved path, so a symlink to the store
 * (or to its folder, or to a store not created yet) takes the same lock. Hard links cannot be told apart by
 * path; SQLite itself warns against hard-linked databases.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve as absolutePath } from 'node:path';
import sqlite3 from 'sqlite3';
import { translate } from './storeError.js';

/** Symlinks followed at most (as the kernel's ELOOP limit). */
const MAX_LINKS = 40;

/**
 * The store's real path: the file's, or for a file not created yet, its
 * folder's plus its name (as given when the folder is missing too). A
 * symlink to a file not created yet is followed, as SQLite follows it to
 * create the file: its lock is the one the target takes once it exists.
 */
function resolvedStorePath(file: string, links = 0): string {
  try {
    return realpathSync(file);
  } catch {
    const target = links < MAX_LINKS ? linkTarget(file) : undefined;
    if (target !== undefined) return resolvedStorePath(absolutePath(dirname(file), target), links + 1);
    try {
      return join(realpathSync(dirname(file)), basename(file));
    } catch {
      return absolutePath(file);
    }
  }
}

/** Where `file` points when it is a symlink, else undefined. */
function linkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** The longest a lock wait goes without checking whether it was asked to stop. */
const WAIT_SLICE_MS = 100;

export class WriterLock {
  private constructor(private readonly db: sqlite3.Database) {}

  /**
   * Takes the lock of `file`, waiting up to `timeoutMs` for another writer to
   * let go of it. The wait stops early, with the same error, once `signal`
   * aborts (a SIGINT while the CLI waits): it is waited out in slices of at
   * most {@link WAIT_SLICE_MS}, and the signal is checked between them.
   */
  static async acquire(file: string, timeoutMs: number, signal?: AbortSignal): Promise<WriterLock> {
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const handle: sqlite3.Database = new sqlite3.Database(`${resolvedStorePath(file)}-lock`, (error) => (error ? reject(translate(error, file, 'lock')) : resolve(handle)));
    });
    const run = (sql: string): Promise<void> =>
      new Promise((resolve, reject) => db.run(sql, (error: Error | null) => (error ? reject(translate(error, file, 'lock')) : resolve())));
    try {
      // No journal: the lock file never holds data, and a journal would be a second side file.
      await run('PRAGMA journal_mode = OFF');
      for (let left = timeoutMs; ; left -= WAIT_SLICE_MS) {
        db.configure('busyTimeout', Math.max(0, Math.min(left, WAIT_SLICE_MS)));
        const taken = await run('BEGIN EXCLUSIVE').then(
          () => true,
          (error: unknown) => {
            if ((error as { code?: string }).code !== 'SQLITE_BUSY' || left <= WAIT_SLICE_MS || signal?.aborted) throw error;
            return false;
          },
        );
        if (taken) break;
      }
    } catch (error) {
      await new Promise<void>((resolve) => db.close(() => resolve()));
      throw error;
    }
    return new WriterLock(db);
  }

  /**
   * Whether a writer holds the lock of `file` now: a read of the side file is
   * refused while one does. Takes no lock and creates nothing (false when
   * there is no side file).
   */
  static async held(file: string): Promise<boolean> {
    const db = await new Promise<sqlite3.Database | undefined>((resolve) => {
      const handle: sqlite3.Database = new sqlite3.Database(`${resolvedStorePath(file)}-lock`, sqlite3.OPEN_READONLY, (error) => resolve(error ? undefined : handle));
    });
    if (!db) return false;
    const busy = await new Promise<boolean>((resolve) => db.get('SELECT count(*) FROM sqlite_master', (error: (Error & { code?: string }) | null) => resolve(error?.code === 'SQLITE_BUSY')));
    await new Promise<void>((resolve) => db.close(() => resolve()));
    return busy;
  }

  /** Lets go of the lock. */
  release(): Promise<void> {
    return new Promise((resolve) => this.db.close(() => resolve()));
  }
}
