/**
 * A store must be a regular file (or `:memory:`): a folder (or a path
 * ending with `/`, also after an existing file's name, which SQLite would open
 * as the file and the file system not find), a side file of an existing file
 * (`FILE-lock`, `FILE-wal`: a store made in one would be overwritten by the
 * store it belongs to), a named pipe or a device (/dev/null) given as --db is refused as a usage error (exit 2) by
 * every store command, and by SqliteStore.open as a StoreError, before any
 * side file (`-wal`, `-shm`, `-lock`) is created beside it.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { StoreError } from '../sinks/storeError.js';

/** A folder holding a named pipe and a folder, neither of which can be a store, nor can a path that ends with `/` (new, or an empty file's name), nor a side file of that file (its empty `-lock`, a `-wal` not created yet). */
function notFiles(): { dir: string; paths: [string, string][] } {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-notfile-'));
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  mkdirSync(join(dir, 'folder'));
  writeFileSync(join(dir, 'file.db'), '');
  writeFileSync(join(dir, 'file.db-lock'), '');
  const file = join(dir, 'file.db');
  return {
    dir,
    paths: [
      [join(dir, 'pipe'), 'a named pipe (FIFO)'],
      [join(dir, 'folder'), 'a folder'],
      [`${join(dir, 'new.db')}/`, 'a folder path (it ends with /)'],
      [`${join(dir, 'file.db')}/`, 'a folder path (it ends with /)'],
      [`${file}-lock`, `the -lock side file of ${file} (pass ${file} for that store)`],
      [`${file}-wal`, `the -wal side file of ${file} (pass ${file} for that store)`],
    ],
  };
}

test('every store command refuses a --db that is no regular file as a usage error, creating nothing beside it', async (t) => {
  const { dir, paths } = notFiles();
  const commands = [['run', '--no-stdin', '--max-cycles', '1'], ['resume', '--no-stdin'], ['consolidate'], ['sessions'], ['events'], ['replay'], ['recall', '--query', 'x'], ['demo']];
  for (const [path, kind] of paths) {
    for (const command of commands) {
      const result = await runCli([...command, '--db', path]);
      t.is(result.code, 2, `${command[0]} ${path}: ${result.stderr}`);
      t.is(result.stderr, `ooda: --db: ${path} is ${kind}, not a store file: pass a regular file (or :memory:)\n`, command[0]);
    }
  }
  t.deepEqual(readdirSync(dir).sort(), ['file.db', 'file.db-lock', 'folder', 'pipe']);
  t.is(statSync(join(dir, 'file.db')).size, 0);
  t.is(statSync(join(dir, 'file.db-lock')).size, 0);
  t.deepEqual(readdirSync(join(dir, 'folder')), []);
});

test('SqliteStore.open refuses a path that is no regular file with a StoreError, creating nothing beside it', async (t) => {
  const { dir, paths } = notFiles();
  for (const [path, kind] of paths) {
    for (const access of ['create', 'existing', 'read'] as const) {
      const error = await t.throwsAsync(SqliteStore.open(path, { access }), { instanceOf: StoreError });
      t.is(error!.message, `store: open: ${path} is ${kind}, not a store file: pass a regular file (--db FILE)`, access);
    }
  }
  t.deepEqual(readdirSync(dir).sort(), ['file.db', 'file.db-lock', 'folder', 'pipe']);
  t.is(statSync(join(dir, 'file.db')).size, 0);
  t.is(statSync(join(dir, 'file.db-lock')).size, 0);
});
