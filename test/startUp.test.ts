/**
 * What happens before a run runs — the `--ws` server listening, the store
 * opening, a crashed session's signals being re-applied — ends cleanly when
 * the run does not start: what was opened is closed and the process exits
 * with a message. A SIGINT / SIGTERM then stops the start-up at its next step
 * (exit 130 / 143), with nothing of the run written and the store as it was.
 */
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentConfig } from '../streams/config.js';
import { Persistence } from '../streams/session.js';
import { StartInterrupted, StartUp } from '../streams/startUp.js';
import { events, finished, startCli, until, type CliResult } from './helpers/cli.js';
import { holdWriteLock } from './helpers/lock.js';
import { recordSession } from './helpers/recordSession.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'ooda-startup-'));
const NEVER_DONE = { OODA_STALL_THRESHOLD: '1000000' };
/** Driver ticks added to the crashed session's recording: re-applying them takes seconds, the window the signal is sent in. */
const ADDED_TICKS = 20_000;

function query<T>(db: string, sql: string): T {
  const file = new Database(db, { readonly: true });
  try {
    return file.prepare(sql).get() as T;
  } finally {
    file.close();
  }
}

const count = (db: string, sql: string): number => query<{ n: number }>(db, sql).n;

/** How many driver ticks the store has committed; 0 while its tables are not created yet. */
function storedTicks(db: string): number {
  try {
    return count(db, "SELECT count(*) AS n FROM signals WHERE type = 'tick'");
  } catch {
    return 0;
  }
}

/**
 * A store whose session `crashed` died after a long run without a save: a
 * real run killed with SIGKILL once it has stored some cycles, whose recording
 * is then lengthened by {@link ADDED_TICKS} driver ticks (as a longer run
 * would have recorded them), so a resume has that many signals to re-apply.
 */
async function crashedStore(): Promise<{ db: string; ticks: number; tail: number }> {
  const db = join(tempDir(), 'crashed.db');
  const child = startCli(['run', '--db', db, '--session', 'crashed', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1000000', '--goal', 'Find qzx wvy'], NEVER_DONE);
  const result = finished(child);
  await until(() => String(existsSync(db) && storedTicks(db) >= 20), /true/);
  child.kill('SIGKILL');
  await result;
  const file = new Database(db);
  try {
    file
      .prepare(
        `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?)
         INSERT INTO signals (id, session, at, type, body)
         SELECT last.id + n, 'crashed', last.at + n, 'tick', json_object('type', 'tick', 'depth', 0, 'meta', json_object('source', 'driver'), 'at', last.at + n)
         FROM k, (SELECT id, at FROM signals ORDER BY id DESC LIMIT 1) AS last`,
      )
      .run(ADDED_TICKS);
  } finally {
    file.close();
  }
  const { status } = query<{ status: string }>(db, "SELECT status FROM sessions WHERE id = 'crashed'");
  const saves = count(db, 'SELECT count(*) AS n FROM snapshots');
  // Left running with no save after its start: every recorded signal is re-applied on resume.
  if (status !== 'running' || saves !== 1) throw new Error(`the killed run left status ${status} and ${saves} snapshot(s)`);
  const ticks = storedTicks(db);
  const tail = count(db, 'SELECT count(*) AS n FROM signals WHERE id > (SELECT signal_id FROM snapshots ORDER BY id DESC LIMIT 1)');
  return { db, ticks, tail };
}

/** Starts `args` on the store, sends `signal` once it says it is re-applying the crashed session's signals, and waits for it to exit. */
async function interruptReapplying(args: string[], signal: NodeJS.Signals): Promise<CliResult> {
  const child = startCli(args, NEVER_DONE);
  const result = finished(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await until(() => stderr, /re-applying \d+ signal\(s\)/);
  child.kill(signal);
  return result;
}

/** What an interrupted start-up must leave: a store that opens, with only the crashed session and its signals, closed cleanly. */
function assertUntouched(t: ExecutionContext, db: string, signals: number): void {
  // Checked before this test reads the store: a reader leaves the WAL file behind.
  t.false(existsSync(`${db}-wal`), 'the store was closed (closing its last connection removes the WAL file)');
  const file = new Database(db, { readonly: true });
  try {
    t.is(file.pragma('integrity_check', { simple: true }), 'ok');
    t.deepEqual(file.prepare('SELECT id, status FROM sessions').all(), [{ id: 'crashed', status: 'crashed' }], 'no session of the interrupted run');
    t.is((file.prepare('SELECT count(*) AS n FROM signals').get() as { n: number }).n, signals);
  } finally {
    file.close();
  }
}

test('a store that cannot be opened after the --ws server listens: the server is closed and the process exits 1', async (t) => {
  const db = join(tempDir(), 'text.db');
  writeFileSync(db, 'not a database, only text that fills more than a header would take '.repeat(4));
  const child = startCli(['run', '--ws', '0', '--db', db, '--no-stdin', '--max-cycles', '1']);
  const { code, stderr } = await finished(child, 15_000);
  t.is(code, 1, stderr);
  t.regex(stderr, /^dashboard: http:\/\/127\.0\.0\.1:\d+\//m);
  t.regex(stderr, /is not an SQLite database/);
});

test('SIGINT while resume re-applies a crashed session: exit 130 naming what was interrupted, nothing written, and the next resume continues the cycle count', async (t) => {
  const { db, ticks, tail } = await crashedStore();
  const signals = count(db, 'SELECT count(*) AS n FROM signals');
  const flags = ['--db', db, '--heartbeat', '0', '--no-stdin'];
  const { code, stdout, stderr } = await interruptReapplying(['resume', ...flags, '--session', 'interrupted', '--max-cycles', '3'], 'SIGINT');
  t.is(code, 130, stderr);
  t.is(stdout, '', 'no event: the run did not start');
  t.regex(stderr, new RegExp(`^ooda: session crashed: re-applying ${tail} signal\\(s\\) recorded after its last snapshot \\(cycle 0\\)\u2026$`, 'm'));
  t.regex(
    stderr,
    new RegExp(`^ooda: SIGINT received while re-applying the ${tail} signal\\(s\\) session crashed recorded after its last snapshot: stopping before the run starts \\(a second SIGINT exits at once\\)$`, 'm'),
  );
  t.is(stderr.trimEnd().split('\n').at(-1), `ooda: SIGINT: stopped before the run started: nothing of session interrupted was written to ${db}, whose sessions are as they were stored`);
  t.notRegex(stderr, /re-applied|resuming|^\s+at /m);
  assertUntouched(t, db, signals);

  const next = startCli(['resume', ...flags, '--session', 'next', '--max-cycles', '3'], NEVER_DONE);
  const resumed = await finished(next, 60_000);
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stderr, new RegExp(`holds session crashed: resuming it at cycle ${ticks} as session next`));
  t.like(events(resumed.stdout).at(-1), { kind: 'session', state: 'stopped', cycles: ticks + 3 });
});

test('SIGTERM while consolidate re-applies a crashed session: exit 143, nothing written, the store as it was', async (t) => {
  const { db } = await crashedStore();
  const signals = count(db, 'SELECT count(*) AS n FROM signals');
  const { code, stdout, stderr } = await interruptReapplying(['consolidate', '--db', db], 'SIGTERM');
  t.is(code, 143, stderr);
  t.is(stdout, '');
  t.regex(stderr, /^ooda: SIGTERM received while re-applying the \d+ signal\(s\) session crashed recorded after its last snapshot: stopping before the run starts/m);
  t.regex(stderr.trimEnd().split('\n').at(-1)!, /^ooda: SIGTERM: stopped before the run started: nothing of session s-\S+ was written to /);
  t.notRegex(stderr, /^\s+at /m);
  assertUntouched(t, db, signals);
});

test('Persistence.open with its start-up interrupted while re-applying: rejects with StartInterrupted naming the step, closes the store, and the session resumes after', async (t) => {
  const db = join(tempDir(), 'crashed.db');
  const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 30, stallThreshold: 1_000_000 });
  await recordSession(db, 'crashed', config, [{ source: 't', value: { type: 'goal', description: 'Find qzx wvy' } }], { crash: true });
  const startUp = new StartUp();
  const interruptOnReapplying = (line: string): void => {
    if (line.includes('re-applying')) startUp.interrupt('SIGINT');
  };
  const error = await t.throwsAsync(Persistence.open({ db, fresh: false }, { session: 'interrupted', config, log: interruptOnReapplying, startUp }), { instanceOf: StartInterrupted });
  t.is(error?.reason, 'SIGINT');
  t.regex(error?.doing ?? '', /^re-applying the \d+ signal\(s\) session crashed recorded after its last snapshot$/);
  t.false(existsSync(`${db}-wal`), 'the store was closed');
  const resumed = await Persistence.open({ db, fresh: false }, { session: 'next', config, log: () => undefined });
  await resumed.store.close();
  t.like(resumed.resumed, { from: 'crashed', cycle: 30 });
});

test('SIGINT while run waits for another writer\'s lock: exit 130, the lock named, then that nothing was written', async (t) => {
  const dir = realpathSync(tempDir());
  const db = join(dir, 'locked.db');
  const holder = await holdWriteLock(`${db}-lock`);
  try {
    // --ws listens before the store opens: once it prints its address, the run is opening the store.
    const child = startCli(['run', '--ws', '0', '--db', db, '--no-stdin', '--session', 'waiting']);
    const result = finished(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await until(() => stderr, /^dashboard: /m);
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    const { code, stdout, stderr: all } = await result;
    t.is(code, 130, all);
    t.is(stdout, '');
    t.regex(all, /^ooda: SIGINT received while opening store .*locked\.db: stopping before the run starts/m);
    t.regex(all, /^ooda: store: lock: .*locked\.db is locked by another process/m);
    t.is(all.trimEnd().split('\n').at(-1), `ooda: SIGINT: stopped before the run started: nothing of session waiting was written to ${db}, whose sessions are as they were stored`);
  } finally {
    holder.kill();
  }
});
