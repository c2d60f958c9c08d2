/**
 * What a store's path may name: `:memory:`, a file not created yet, or a
 * regular file. Anything else (a folder, or a new path ending with `/`, a
 * device such as /dev/null, a named pipe, a socket) is refused before anything is opened: SQLite would try to
 * use it as a database and create its side files (`-wal`, `-shm`, the
 * writer's `-lock`) beside it.
 */
import { statSync, type Stats } from 'node:fs';

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
    return undefined; // a path SQLite cannot open either (e.g. through a file): its own error names it
  }
  if (!stat) return file.endsWith('/') ? `${file} is a folder path (it ends with /), not a store file` : undefined;
  if (stat.isFile()) return undefined;
  const kind = KINDS.find(([is]) => is(stat))?.[1] ?? 'not a regular file';
  return `${file} is ${kind}, not a store file`;
}
