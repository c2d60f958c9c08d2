/**
 * What an exit that cannot finish the store (a second SIGINT/SIGTERM, a store
 * that cannot be written at the end) says of the session must be true of the
 * store: `ooda resume` can continue the session only once the store has
 * committed its start (its row and first snapshot). The program's
 * `sessionStored` is checked against the store itself, read from outside, on a
 * real run: before the first write commits (a flush period longer than the
 * test, so nothing is written until the run ends) and after it.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { firstValueFrom, filter } from 'rxjs';
import { sessionLeft } from '../bin/lifecycle.js';
import { AgentConfig } from '../streams/config.js';
import type { RunningProgram } from '../streams/program.js';
import { startPersistentProgram } from '../streams/persistentProgram.js';

const tempDb = (): string => join(mkdtempSync(join(tmpdir(), 'ooda-unfinished-')), 'store.db');

/** Starts `ooda run --db db` in the process: an endless run on one goal that never completes. */
function start(db: string, session: string, flushMs?: number): Promise<RunningProgram> {
  const stdout = new PassThrough();
  stdout.resume();
  return startPersistentProgram(
    {
      config: AgentConfig.parse({ seed: 1, heartbeatMs: 0, paceMs: 2, maxCycles: 1_000_000, stallThreshold: 1_000_000 }),
      goals: ['Find qzx wvy'],
      session,
      format: 'ndjson',
      readStdin: false,
      files: [],
      vitalsMs: 0,
    },
    { db, ...(flushMs !== undefined ? { flushMs } : {}) },
    { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
    () => undefined,
  );
}

/** The session's row status and snapshot count, read from outside the run. */
function stored(db: string, session: string): { status: string | undefined; snapshots: number } {
  const file = new Database(db, { readonly: true });
  try {
    const row = file.prepare('SELECT status FROM sessions WHERE id = ?').get(session) as { status: string } | undefined;
    const { n } = file.prepare('SELECT count(*) AS n FROM snapshots WHERE session = ?').get(session) as { n: number };
    return { status: row?.status, snapshots: n };
  } finally {
    file.close();
  }
}

test('before the store commits the session: no cycle runs, nothing of it is stored, and the exit says so instead of pointing to ooda resume', async (t) => {
  const db = tempDb();
  const program = await start(db, 'early', 600_000);
  const seen: string[] = [];
  program.events$.subscribe((e) => seen.push(e.kind));
  try {
    t.false(program.sessionStored);
    t.true(program.unwrittenRows > 0, 'the session row and its first snapshot are queued');
    t.deepEqual(stored(db, 'early'), { status: undefined, snapshots: 0 });
    t.deepEqual(seen, [], 'the run has not started: it waits for the session\'s start to be committed');
    t.is(
      sessionLeft(db, 'early', program.sessionStored),
      'nothing of session early is stored (the store had not committed its start), so ooda resume cannot continue it',
    );
    // The start is written at once, whatever flushMs: the run then starts.
    await firstValueFrom(program.events$.pipe(filter((e) => e.kind === 'decision')));
    t.true(program.sessionStored, 'cycles run only once the start is committed');
    t.deepEqual(stored(db, 'early'), { status: 'running', snapshots: 1 });
  } finally {
    program.stop('test over');
    await program.done;
  }
  t.deepEqual(stored(db, 'early'), { status: 'ended', snapshots: 2 });
});

test('once the store has committed the session: it is left running and ooda resume can continue it', async (t) => {
  const db = tempDb();
  const program = await start(db, 'late');
  try {
    for (let waited = 0; !program.sessionStored; waited += 10) {
      if (waited > 20_000) throw new Error('the store did not commit the session within 20 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    t.deepEqual(stored(db, 'late'), { status: 'running', snapshots: 1 });
    t.is(sessionLeft(db, 'late', program.sessionStored), 'session late is left running: ooda resume re-applies the signals it recorded');
  } finally {
    program.stop('test over');
    await program.done;
  }
});

test('an in-memory store keeps nothing of the session once the process exits, committed or not', (t) => {
  for (const committed of [true, false]) {
    t.is(sessionLeft(':memory:', 's', committed), 'nothing of session s outlives the process: the store is in memory');
  }
});
