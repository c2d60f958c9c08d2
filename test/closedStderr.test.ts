/**
 * A stderr that can no longer be written (its reader gone: EPIPE) loses the
 * log lines and nothing else. Before, the next line logged — the one saying
 * a SIGTERM came — threw EPIPE unhandled: exit 1, the session left `running`
 * without its exit snapshot.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, startCli, until } from './helpers/cli.js';

test('ooda run whose stderr reader went away: SIGTERM still stops it gracefully, exit 143, the session ended in the store', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-stderr-')), 'run.db');
  const child = startCli(['run', '--db', db, '--pace', '5', '--max-cycles', '100000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], { OODA_STALL_THRESHOLD: '1000000' });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const result = finished(child);
  await until(() => err, /started/);
  await until(() => out, /"kind":"decision"/);
  child.stderr.destroy();
  // A moment for the close to reach the pipe, so the line saying SIGTERM came is written into a closed one.
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGTERM');
  const { code, signal } = await result;
  t.is(signal, null);
  t.is(code, 143);
  const file = new Database(db, { readonly: true });
  t.teardown(() => file.close());
  t.like(file.prepare('SELECT status, reason FROM sessions').get(), { status: 'ended', reason: 'SIGTERM' });
  t.is((file.prepare('SELECT reason FROM snapshots ORDER BY id DESC LIMIT 1').get() as { reason: string }).reason, 'exit');
});
