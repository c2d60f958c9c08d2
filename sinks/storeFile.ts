/**
 * What a store's path may name: `:memory:`, a file not created yet, or a
 * regular file. Anything else (a folder, or a path ending with `/`, a
 * device such as /dev/null, a named pipe, a socket) is refused before anything is opened: SQLite would try to
 * use it as a database and create its side files (`-wal`, `-shm`, the
 * writer's `-lock`) beside it. So is a side file of an existing file
 * (`ooda.db-lock`, `ooda.db-wal`, a tab completion away): a store made in it
 * would be overwritten by the store it belongs to, and the other way round.
 */
import { accessSync, constants, existsSync, statfsSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Free bytes under which the disk holding a store is taken for full: a WAL store's side files grow by 32 KiB and its log by pages. */
const FULL_BELOW = 1024 * 1024;

const KINDS: [is: (stat: Stats) => boolean, kind: string][] = [
  [(s) => s.isDirectory(), 'a folder'],
  [(s) => s.isCharacterDevice() || s.isBlockDevice(), 'a device'],
  [(s) => s.isFIFO(), 'a named pipe (FIFO)'],
  [(s) => s.isSocket(), 'a socket'],
];

/** Why `file` cannot hold a store (`FILE is a folder, not a store file`), or undefined when it can. */
export function storeFileProblem(file: string): string | undefined {
  if (file === ':memory:') return undefined;
  let stat: Stats | undefined;
  try {
    stat = statSync(file, { throwIfNoEntry: false });
  } catch {
    // A path SQLite cannot open either (e.g. through a file): its own error names it. But SQLite opens `FILE/` as FILE, where the file-system calls find nothing.
    return file.endsWith('/') ? folderPath(file) : undefined;
  }
  if (!stat) return file.endsWith('/') ? folderPath(file) : sideFile(file);
  if (stat.isFile()) return sideFile(file);
  const kind = KINDS.find(([is]) => is(stat))?.[1] ?? 'not a regular file';
  return `${file} is ${kind}, not a store file`;
}

function folderPath(file: string): string {
  return `${file} is a folder path (it ends with /), not a store file`;
}

/** The suffixes of the files SQLite and the writer's lock keep beside a store. */
const SIDE_FILE = /^(.+)-(wal|shm|lock|journal)$/;

/** Why `file` is a side file of an existing file (`ooda.db-lock` beside `ooda.db`), or undefined. */
function sideFile(file: string): string | undefined {
  const match = SIDE_FILE.exec(file);
  if (!match) return undefined;
  const [, store, suffix] = match;
  let isFile = false;
  try {
    isFile = statSync(store!, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    isFile = false;
  }
  return isFile ? `${file} is the -${suffix} side file of ${store} (pass ${store} for that store), not a store file` : undefined;
}

/**
 * Why a writer may not open an existing store file (`FILE is read-only …`),
 * or undefined when it may: the file, and each side file it has (`-wal`,
 * `-shm`, the writer's `-lock`), must be writable by this user, and so must
 * its folder while a side file is missing (a writer creates it). Checked before
 * anything is opened: SQLite would open an unwritable file read-only and
 * create its missing `-wal` and `-shm` with the file's read-only mode (or as
 * this user, in another user's folder), and a writer given the file back later
 * could not use them ("is read-only").
 */
export function unwritableStoreProblem(file: string): string | undefined {
  if (file === ':memory:' || !existsSync(file)) return undefined;
  const sideFiles = [`${file}-wal`, `${file}-shm`, `${file}-lock`];
  for (const path of [file, ...sideFiles]) {
    if (path !== file && !existsSync(path)) continue;
    if (!writable(path)) {
      return path === file
        ? `${file} is read-only (this user may not write it): check the permissions of the file and its folder, or pass another --db`
        : `${file} cannot be written: its side file ${path} is read-only for this user (another user's, or made while the store was read-only): once no program uses the store, make it writable for this user, or ${path.endsWith('-wal') ? `have its owner fold it into the store (sqlite3 ${file} 'PRAGMA wal_checkpoint(TRUNCATE)') and delete it` : 'delete it'}; or pass another --db`;
    }
  }
  const missing = sideFiles.filter((path) => !existsSync(path));
  const folder = dirname(file);
  if (missing.length > 0 && !writable(folder)) {
    return `${file} cannot be written: its folder ${folder} is not writable by this user, and a writer creates ${missing.join(', ')} beside it: make the folder writable for this user, or pass another --db`;
  }
  return undefined;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the file system holding `file` has (almost) no room left; false
 * when that cannot be told. SQLite reports a `-shm` file it cannot create or
 * grow there (opening a store in WAL mode, even to read it) as an I/O error.
 */
export function diskFull(file: string): boolean {
  const free = freeBytes(file);
  return free !== undefined && free < FULL_BELOW;
}

/** The bytes this user may still write on the file system holding `file`; undefined for `:memory:` or when that cannot be told. */
export function freeBytes(file: string): number | undefined {
  if (file === ':memory:') return undefined;
  try {
    const { bavail, bsize } = statfsSync(dirname(resolve(file)));
    return bavail * bsize;
  } catch {
    return undefined;
  }
}
