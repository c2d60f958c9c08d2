/**
 * Holds a write lock on an SQLite file from another process (SQLite's POSIX
 * locks do not conflict within one process), until the child is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');

export function holdWriteLock(file: string): Promise<ChildProcess> {
  const script = `const D = require(${JSON.stringify(betterSqlite)}); const db = new D(${JSON.stringify(file)}); db.exec('BEGIN EXCLUSIVE'); process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
}
