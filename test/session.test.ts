import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { events, finished, OODA, runCli, startCli, until, type CliResult } from './helpers/cli.js';
import { holdWriteLock } from './helpers/lock.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { toSqlite } from '../sinks/toSqlite.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'ooda-session-'));
const NEVER_DONE = { OODA_STALL_THRESHOLD: '1000000' };
/** root ignores file modes, so what must meet them runs as an unprivileged user there. */
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

function query<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

function storedEvents(file: string, session?: string): Record<string, unknown>[] {
  const where = session ? ` WHERE session = '${session}'` : '';
  return query<{ seq: number; session: string; cycle: number; at: number; kind: string; body: string }>(file, `SELECT * FROM events${where} ORDER BY seq`).map(
    (r) => ({ kind: r.kind, seq: r.seq, session: r.session, cycle: r.cycle, at: r.at, ...(JSON.parse(r.body) as object) }),
  );
}

test('SIGTERM mid-run: every accepted signal and every emitted event is in the store; auto-save runs on the heartbeat', async (t) => {
  const db = join(tempDir(), 'run.db');
  const child = startCli(['run', '--db', db, '--pace', '2', '--max-cycles', '100000', '--heartbeat', '50', '--goal', 'Find qzx wvy'], { ...NEVER_DONE, OODA_AUTO_SAVE_MS: '100' });
  const result = finished(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 1; i <= 20; i++) child.stdin.write(`{"type":"fact","subject":"s${i}","predicate":"p","object":"o${i}"}\n`);
  await until(() => out, /"line":20/);
  await until(() => out, /"beat":5}/);
  child.kill('SIGTERM');
  const { code, stdout, stderr } = await result;
  t.is(code, 143, stderr);
  const printed = events(stdout);
  t.deepEqual(storedEvents(db), printed, 'the store holds exactly the events printed, in order');
  t.like(printed.at(-1), { kind: 'session', state: 'stopped', reason: 'SIGTERM' });
  const facts = query<{ body: string }>(db, "SELECT body FROM signals WHERE type = 'fact' ORDER BY id").map((r) => JSON.parse(r.body) as { meta: { line: number } });
  t.deepEqual(facts.map((f) => f.meta.line), Array.from({ length: 20 }, (_, i) => i + 1));
  t.true(query(db, "SELECT 1 FROM signals WHERE type = 'tick'").length > 0, 'driver ticks are recorded');
  t.like(query<Record<string, unknown>>(db, 'SELECT status, reason FROM sessions')[0], { status: 'ended', reason: 'SIGTERM' });
  const saves = query<{ reason: string }>(db, 'SELECT reason FROM snapshots ORDER BY id').map((r) => r.reason);
  t.is(saves[0], 'start');
  t.true(saves.includes('auto-save'), saves.join(', '));
  t.is(saves.at(-1), 'exit');
});

test('kill -9 mid-run: the file is intact and resume restores the last snapshot plus the signals recorded after it', async (t) => {
  const db = join(tempDir(), 'crash.db');
  // stdin stays open, so the run outlives its goal: it is killed while idle, well after the last flush.
  const child = startCli(['run', '--db', db, '--max-cycles', '1000000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], NEVER_DONE);
  const result = finished(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 1; i <= 10; i++) child.stdin.write(`{"type":"fact","subject":"s${i}","predicate":"p","object":"o${i}"}\n`);
  await until(() => out, /"line":10}/);
  const committedFacts = () => String(query<{ n: number }>(db, "SELECT count(*) AS n FROM signals WHERE type = 'fact'")[0]!.n);
  await until(committedFacts, /^10$/);
  child.kill('SIGKILL');
  t.is((await result).signal, 'SIGKILL');
  t.deepEqual(query(db, 'PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
  const crashed = query<{ id: string }>(db, 'SELECT id FROM sessions')[0]!.id;
  t.deepEqual(query(db, 'SELECT reason FROM snapshots'), [{ reason: 'start' }], 'only the starting state was saved');
  const storedTicks = query<{ n: number }>(db, "SELECT count(*) AS n FROM signals WHERE type = 'tick'")[0]!.n;
  t.true(storedTicks > 0);
  t.is(query<{ n: number }>(db, "SELECT count(*) AS n FROM signals WHERE type = 'fact'")[0]!.n, 10);
  const lastStored = query<{ cycle: number }>(db, 'SELECT max(cycle) AS cycle FROM events')[0]!.cycle;

  const resumed = await runCli(['resume', '--db', db, '--max-cycles', '5', '--heartbeat', '0', '--no-stdin', '--goal', 'Find abc'], '', NEVER_DONE);
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stderr, new RegExp(`re-applied \\d+ signal\\(s\\) recorded after its last snapshot`));
  t.regex(resumed.stderr, new RegExp(`holds session ${crashed}: resuming it at cycle ${storedTicks}`));
  const started = events(resumed.stdout)[0]!;
  t.like(started, { kind: 'session', state: 'started', cycle: storedTicks });
  t.true(storedTicks >= lastStored, 'the state covers every stored event');
  t.like(events(resumed.stdout).find((e) => e.kind === 'decision'), { cycle: storedTicks + 1 }, 'the cycle count continues');
  t.like(query<Record<string, unknown>>(db, `SELECT status FROM sessions WHERE id = '${crashed}'`)[0], { status: 'crashed' });
  const replay = await runCli(['replay', '--db', db, '--session', crashed]);
  t.is(replay.code, 0, replay.stdout + replay.stderr);
  t.regex(replay.stdout, /^identical/);
});

test('resume continues the cycle count and seq; run without --fresh resumes and says so; --fresh starts at cycle 0', async (t) => {
  const db = join(tempDir(), 'resume.db');
  const flags = ['--db', db, '--heartbeat', '0', '--no-stdin'];
  const first = await runCli(['run', ...flags, '--max-cycles', '5', '--goal', 'Find qzx wvy'], '', NEVER_DONE);
  t.is(first.code, 0, first.stderr);
  const firstEvents = events(first.stdout);
  t.like(firstEvents.at(-1), { kind: 'session', state: 'stopped', cycles: 5 });

  const second = await runCli(['resume', ...flags, '--max-cycles', '3'], '', NEVER_DONE);
  t.is(second.code, 0, second.stderr);
  const secondEvents = events(second.stdout);
  t.like(secondEvents[0], { kind: 'session', state: 'started', cycle: 5, seq: (firstEvents.at(-1)!.seq as number) + 1 });
  t.like(secondEvents.at(-1), { kind: 'session', state: 'stopped', cycles: 8 });
  t.true(secondEvents.some((e) => e.kind === 'decision' && e.cycle === 6), 'the restored goal is worked on');
  // resume says what run says when it resumes, without run's hint (it asked to resume).
  t.regex(second.stderr, /holds session .*: resuming it at cycle 5 as session \S+\n/);
  t.regex(second.stderr, /started \(at cycle 5, max 3 more\) on [^]*ended: max cycles reached after 3 cycle\(s\), at cycle 8\n/);

  const third = await runCli(['run', ...flags, '--max-cycles', '2'], '', NEVER_DONE);
  t.is(third.code, 0, third.stderr);
  t.regex(third.stderr, /holds session .*: resuming it at cycle 8 .*--fresh starts a new mind/);
  t.regex(third.stderr, /started \(at cycle 8, max 2 more\)/);
  t.regex(third.stderr, /ended: max cycles reached after 2 cycle\(s\), at cycle 10\n/);
  t.like(events(third.stdout).at(-1), { cycles: 10 });

  const fresh = await runCli(['run', ...flags, '--fresh', '--max-cycles', '2', '--goal', 'Find abc'], '', NEVER_DONE);
  t.is(fresh.code, 0, fresh.stderr);
  t.notRegex(fresh.stderr, /resuming/);
  t.regex(fresh.stderr, /started \(max 2 cycles\)[^]*ended: max cycles reached after 2 cycle\(s\)\n/);
  const freshEvents = events(fresh.stdout);
  t.like(freshEvents[0], { kind: 'session', state: 'started', cycle: 0 });
  t.like(freshEvents.at(-1), { cycles: 2 });
  t.false(freshEvents.some((e) => e.kind === 'goal' && e.description === 'Find qzx wvy'), 'a fresh mind has none of the old goals');

  const listed = await runCli(['sessions', '--db', db, '--json']);
  t.deepEqual(
    events(listed.stdout).map((s) => [s.cycles, s.status]),
    [['0..5', 'ended'], ['5..8', 'ended'], ['8..10', 'ended'], ['0..2', 'ended']],
  );
  const ids = events(listed.stdout).map((s) => s.id);
  t.deepEqual(events(listed.stdout).map((s) => s.resumedFrom), [null, ids[0], ids[1], null], 'resumedFrom is the session continued, or null');
  t.deepEqual(
    events(listed.stdout).map((s) => [(s.config as { maxCycles: number }).maxCycles, (s.config as { heartbeatMs: number }).heartbeatMs]),
    [[5, 0], [8, 0], [10, 0], [2, 0]],
    'each line has the config its session ran with (a resumed one counts to its last cycle)',
  );
  const decisions = await runCli(['events', '--db', db, '--kind', 'decision', '--limit', '2']);
  t.deepEqual(events(decisions.stdout).map((e) => [e.kind, e.cycle]), [['decision', 1], ['decision', 2]]);
});

test('resume --max-cycles at its largest value on a session past cycle 0 runs with the limit the config can hold, not an internal error', async (t) => {
  const dir = tempDir();
  const db = join(dir, 'big.db');
  const kg = join(dir, 'moons.ndjson');
  writeFileSync(kg, '{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}\n');
  const flags = ['--db', db, '--heartbeat', '0', '--no-stdin'];
  const first = await runCli(['run', ...flags, '--kg', kg, '--goal', 'Find moons of Mars']);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stderr, /ended: input ended and no goal is active after 1 cycle\(s\)\n/);
  const max = Number.MAX_SAFE_INTEGER;
  const resumed = await runCli(['resume', ...flags, '--max-cycles', String(max)]);
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stderr, new RegExp(`started \\(at cycle 1, max ${max - 1} more\\)`));
  t.regex(resumed.stderr, /ended: input ended and no goal is active after 0 cycle\(s\), at cycle 1\n/);
});

test('demo --db on a store holding a session says the cycles this run did, and the cycle it reached, as run does', async (t) => {
  const db = join(tempDir(), 'demo.db');
  const first = await runCli(['demo', '--db', db, '--max-cycles', '3']);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stderr, /demo ended \(max cycles reached\) after 3 cycle\(s\): /);
  const second = await runCli(['demo', '--db', db, '--max-cycles', '3']);
  t.is(second.code, 0, second.stderr);
  t.regex(second.stderr, /resuming it at cycle 3 /);
  t.regex(second.stderr, /demo ended \(max cycles reached\) after 3 cycle\(s\), at cycle 6: /);
});

test('sessions on a store that holds no session yet prints no table, and says so on stderr', async (t) => {
  const db = join(tempDir(), 'no-session.db');
  await (await SqliteStore.open(db)).close();
  for (const json of [[], ['--json']]) {
    const listed = await runCli(['sessions', '--db', db, ...json]);
    t.is(listed.code, 0, listed.stderr);
    t.is(listed.stdout, '', json.join(''));
    t.regex(listed.stderr, /^ooda: .*no-session\.db holds no session yet \('ooda run --db .*no-session\.db' starts one\)\n$/);
  }
});

test('the sessions table stays aligned with wide session ids (CJK, emoji): cells are padded by the columns a terminal gives them', async (t) => {
  const db = join(tempDir(), 'wide.db');
  for (const session of ['エージェント-1', 'plain', 'rocket-\u{1f680}']) {
    const run = await runCli(['run', '--db', db, '--fresh', '--session', session, '--max-cycles', '1', '--heartbeat', '0', '--no-stdin']);
    t.is(run.code, 0, run.stderr);
  }
  const listed = await runCli(['sessions', '--db', db]);
  t.is(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  t.is(lines.length, 4);
  const statusColumn = lines[0]!.indexOf('status');
  for (const line of lines.slice(1)) t.is(stringWidth(line.slice(0, line.indexOf('ended'))), statusColumn, line);
});

test('replay of a recorded session is identical; a tampered recording reports the first divergence and exits 1', async (t) => {
  const db = join(tempDir(), 'replay.db');
  const lines = [
    '{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}',
    'not json',
    '{"type":"command","command":"save"}',
    '{"type":"input","text":"hello"}',
    '{"type":"goal","description":"Find moons of Mars"}',
  ];
  const run = await runCli(['run', '--db', db, '--max-cycles', '30', '--heartbeat', '0', '--goal', 'Find qzx wvy'], `${lines.join('\n')}\n`);
  t.is(run.code, 0, run.stderr);
  t.true(events(run.stdout).some((e) => e.kind === 'rejected'));
  t.true(events(run.stdout).some((e) => e.kind === 'command' && /^saved at cycle \d+$/.test(String(e.result))));
  const identical = await runCli(['replay', '--db', db]);
  t.is(identical.code, 0, identical.stdout + identical.stderr);
  t.regex(identical.stdout, new RegExp(`^identical: session .*, ${events(run.stdout).length} event\\(s\\)`));

  const file = new Database(db);
  file.prepare("UPDATE signals SET body = replace(body, 'Phobos', 'Deimos') WHERE type = 'fact'").run();
  file.close();
  const tampered = await runCli(['replay', '--db', db]);
  t.is(tampered.code, 1);
  const factSeq = events(run.stdout).find((e) => e.kind === 'fact')!.seq;
  t.regex(tampered.stdout, new RegExp(`divergence in session .* at seq ${factSeq}\\n  expected: .*"object":"Phobos".*\\n  got: +.*"object":"Deimos"`));
});

test('a read-only store and a locked store each give a clear error and exit 1', async (t) => {
  const dir = tempDir();
  const db = join(dir, 'ro.db');
  t.is((await runCli(['run', '--db', db, '--max-cycles', '1', '--heartbeat', '0', '--no-stdin'])).code, 0);
  chmodSync(dir, 0o755);
  chmodSync(db, 0o444);
  const readOnly = await finishedWith(spawn(process.execPath, [OODA, 'run', '--db', db, '--no-stdin', '--heartbeat', '0'], { ...asUser, cwd: dir, stdio: 'pipe' }));
  t.is(readOnly.code, 1, readOnly.stderr);
  t.regex(readOnly.stderr, new RegExp(`ooda: store: .*${db.replace(/[.]/g, '\\.')} is read-only .*check the permissions`));
  // Reading needs no write access, not even to the folder (where WAL would put its -shm file).
  const listed = await finishedWith(spawn(process.execPath, [OODA, 'sessions', '--db', db, '--json'], { ...asUser, cwd: dir, stdio: 'pipe' }));
  t.is(listed.code, 0, listed.stderr);
  t.deepEqual(events(listed.stdout).map((s) => [s.cycles, s.status]), [['0..0', 'ended']]);
  const printed = await finishedWith(spawn(process.execPath, [OODA, 'events', '--db', db, '--kind', 'session'], { ...asUser, cwd: dir, stdio: 'pipe' }));
  t.is(printed.code, 0, printed.stderr);
  t.deepEqual(events(printed.stdout).map((e) => e.state), ['started', 'stopped']);

  const locked = join(dir, 'locked.db');
  t.is((await runCli(['run', '--db', locked, '--max-cycles', '1', '--heartbeat', '0', '--no-stdin'])).code, 0);
  const locker = await holdWriteLock(locked);
  try {
    const busy = await runCli(['run', '--db', locked, '--no-stdin', '--heartbeat', '0']);
    t.is(busy.code, 1, busy.stderr);
    t.regex(busy.stderr, /ooda: store: .* is locked by another process .*a program holds a write transaction on it \(an sqlite3 shell after BEGIN, say\); end it, or pass another --db/);
    t.notRegex(busy.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    locker.kill();
  }
});

/** Makes a file the tests' command user's (when they run commands as another user). */
function giveToUser(path: string): void {
  const { uid, gid } = asUser as { uid?: number; gid?: number };
  if (uid !== undefined && gid !== undefined) chownSync(path, uid, gid);
}

/**
 * A store with one session, owned by the user the tests run commands as, then
 * made read-only by its owner; `as` runs ooda on it as that user, and `files`
 * lists the folder as it was then.
 */
async function readOnlyStore(t: ExecutionContext, name: string): Promise<{ dir: string; db: string; files: string[]; as: (args: string[]) => Promise<CliResult> }> {
  const dir = tempDir();
  const db = join(dir, name);
  t.is((await runCli(['run', '--db', db, '--max-cycles', '1', '--heartbeat', '0', '--no-stdin'])).code, 0);
  for (const file of ['', ...readdirSync(dir)]) giveToUser(join(dir, file));
  chmodSync(db, 0o444);
  const files = readdirSync(dir).sort();
  const as = (args: string[]) => finishedWith(spawn(process.execPath, [OODA, ...args, '--db', db], { ...asUser, cwd: dir, stdio: 'pipe' }));
  return { dir, db, files, as };
}

test('reading a store file its owner made read-only leaves no side file behind that keeps a writer out once it is writable again', async (t) => {
  const { dir, db, files, as } = await readOnlyStore(t, 'kept.db');
  for (const args of [['sessions'], ['events'], ['replay'], ['recall', '--query', 'qzx']]) {
    const read = await as(args);
    t.is(read.code, 0, `${args[0]}: ${read.stderr}`);
  }
  t.deepEqual(readdirSync(dir).sort(), files, 'no -wal or -shm was created');
  chmodSync(db, 0o644);
  const resumed = await as(['resume', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1']);
  t.is(resumed.code, 0, resumed.stderr);
});

test('a writer refused a store file its owner made read-only leaves no side file behind: once the file is writable again, the store can be written', async (t) => {
  const { dir, db, files, as } = await readOnlyStore(t, 'guarded.db');
  for (const args of [['run', '--no-stdin', '--heartbeat', '0'], ['resume', '--no-stdin', '--heartbeat', '0'], ['consolidate']]) {
    const refused = await as(args);
    t.is(refused.code, 1, `${args[0]}: ${refused.stderr}`);
    t.regex(refused.stderr, /ooda: store: .*guarded\.db is read-only .*check the permissions of the file and its folder, or pass another --db\n$/);
  }
  t.deepEqual(readdirSync(dir).sort(), files, 'no -wal or -shm was created');
  chmodSync(db, 0o644);
  const resumed = await as(['resume', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1']);
  t.is(resumed.code, 0, resumed.stderr);
  // A side file such a refusal left before (read-only, like the file then) is named, not blamed on the file.
  writeFileSync(`${db}-shm`, '');
  giveToUser(`${db}-shm`);
  chmodSync(`${db}-shm`, 0o444);
  const blocked = await as(['resume', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1']);
  t.is(blocked.code, 1, blocked.stderr);
  t.regex(blocked.stderr, /ooda: store: open: .*guarded\.db cannot be written: its side file .*guarded\.db-shm is read-only for this user .*delete it; or pass another --db\n$/);
});

function finishedWith(child: ReturnType<typeof spawn>): Promise<CliResult> {
  return finished(child as Parameters<typeof finished>[0]);
}

test('commands that read or resume a store never create one: a missing file or a file that is no store is a clear error', async (t) => {
  const dir = tempDir();
  const missing = join(dir, 'typo.db');
  const commands = [['sessions'], ['events'], ['replay'], ['recall', '--query', 'moons'], ['resume', '--no-stdin'], ['consolidate']];
  for (const command of commands) {
    const result = await runCli([...command, '--db', missing]);
    t.is(result.code, 1, `${command[0]}: ${result.stderr}`);
    t.regex(result.stderr, /^ooda: store: open: .*typo\.db does not exist: 'ooda run --db .*typo\.db' creates a store/, command[0]);
  }
  t.deepEqual(readdirSync(dir), [], 'no file was created');

  const empty = join(dir, 'empty.db');
  writeFileSync(empty, '');
  const result = await runCli(['events', '--db', empty]);
  t.is(result.code, 1, result.stderr);
  t.regex(result.stderr, /empty\.db is not an ooda-rx store \(it has no schema\)/);
  for (const command of commands) {
    const inMemory = await runCli([...command, '--db', ':memory:']);
    t.is(inMemory.code, 1, `${command[0]}: ${inMemory.stderr}`);
    t.regex(inMemory.stderr, /^ooda: store: open: :memory: is a new, empty store each time, with no session: pass the store's file \(--db FILE\)\n$/, command[0]);
  }
});

test('consolidate turns the saved working memory into episodes; recall prints them best first, at most --top-k', async (t) => {
  const db = join(tempDir(), 'episodes.db');
  const input = [
    { type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' },
    { type: 'fact', subject: 'Jupiter', predicate: 'has moon', object: 'Europa' },
    { type: 'goal', description: 'Find moons of Mars', priority: 200 },
    { type: 'goal', description: 'Find moons of Jupiter', priority: 100 },
  ].map((line) => JSON.stringify(line)).join('\n');
  const run = await runCli(['run', '--db', db, '--heartbeat', '0', '--max-cycles', '10'], `${input}\n`);
  t.is(run.code, 0, run.stderr);
  const before = await runCli(['recall', '--db', db, '--query', 'moons of Jupiter']);
  t.is(before.code, 0, before.stderr);
  t.is(before.stdout, '', 'no episode before consolidation');
  t.regex(before.stderr, /none of the 0 episode\(s\) of session .* shares a term with "moons of Jupiter"/);

  const consolidated = await runCli(['consolidate', '--db', db]);
  t.is(consolidated.code, 0, consolidated.stderr);
  t.like(events(consolidated.stdout).find((e) => e.kind === 'consolidation'), { episodes: 2, reason: 'consolidate command' });
  t.regex(consolidated.stderr, /consolidated \d+ entries into 2 episode\(s\)/);

  const best = await runCli(['recall', '--db', db, '--query', 'Europa of Jupiter', '--top-k', '1']);
  t.is(best.code, 0, best.stderr);
  t.deepEqual(events(best.stdout).map((e) => e.learnings), [['jupiter', 'europa']]);
  const both = await runCli(['recall', '--db', db, '--query', 'moons']);
  t.is(events(both.stdout).length, 2);
  const reader = startCli(['recall', '--db', db, '--query', 'moons']);
  const closedEarly = finished(reader);
  reader.stdout.destroy();
  const quiet = await closedEarly;
  t.is(quiet.code, 0, quiet.stderr);
  t.notRegex(quiet.stderr, /EPIPE|\n\s+at /, 'a closed pipe ends recall quietly');
  const none = await runCli(['recall', '--db', db, '--query', 'zebra']);
  t.is(none.code, 0, none.stderr);
  t.is(none.stdout, '');
  t.regex(none.stderr, /none of the 2 episode\(s\) of session .* shares a term with "zebra"/);
});

test('consolidate records its command as the CLI\u2019s own signal and ends the session saying why', async (t) => {
  const db = join(tempDir(), 'consolidate.db');
  const run = await runCli(['run', '--db', db, '--heartbeat', '0', '--max-cycles', '3', '--goal', 'Find moons of Mars']);
  t.is(run.code, 0, run.stderr);
  const consolidated = await runCli(['consolidate', '--db', db]);
  t.is(consolidated.code, 0, consolidated.stderr);
  const printed = events(consolidated.stdout);
  const session = printed[0]!.session as string;
  for (const emitted of [printed, storedEvents(db, session)]) {
    const perceived = emitted.filter((e) => e.kind === 'perceived');
    t.deepEqual(perceived.map((e) => [e.source, e.signalType, 'line' in e]), [['cli', 'command', false]]);
    t.like(emitted.at(-1), { kind: 'session', state: 'stopped', reason: 'consolidate command done' });
  }
  const [row] = query<{ reason: string; cycles: number }>(db, `SELECT reason, cycles FROM sessions WHERE id = '${session}'`);
  t.deepEqual(row, { reason: 'consolidate command done', cycles: 3 });
});

/** A store of 2600 heartbeat events, seq 1..2600: the odd ones in session s1, the even ones in s2. */
async function heartbeatLog(): Promise<string> {
  const db = join(tempDir(), 'log.db');
  const store = await SqliteStore.open(db);
  const sink = toSqlite(store);
  for (const id of ['s1', 's2']) sink.insert('sessions', { id, started_at: 0, status: 'ended', resumed_from: null, first_seq: 1, start_cycle: 0, config: {} });
  for (let seq = 1; seq <= 2600; seq++) sink.next({ kind: 'heartbeat', seq, session: seq % 2 ? 's1' : 's2', cycle: 0, at: seq, beat: seq });
  sink.complete();
  await sink.flushed();
  await store.close();
  return db;
}

test('ooda events reads the log a page at a time: every event once, in seq order, --session and --limit across pages; a closed pipe ends quietly', async (t) => {
  const db = await heartbeatLog();

  const all = await runCli(['events', '--db', db]);
  t.is(all.code, 0, all.stderr);
  t.deepEqual(events(all.stdout).map((e) => e.seq), Array.from({ length: 2600 }, (_, i) => i + 1));
  const some = events((await runCli(['events', '--db', db, '--session', 's2', '--limit', '1200'])).stdout);
  t.deepEqual(some.map((e) => e.seq), Array.from({ length: 1200 }, (_, i) => 2 * (i + 1)));
  t.true(some.every((e) => e.session === 's2'));
  const unknown = await runCli(['events', '--db', db, '--session', 'nope']);
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /ooda: store: no session "nope" in .*log\.db \(see 'ooda sessions'\)/);

  const child = startCli(['events', '--db', db]);
  const done = finished(child);
  child.stdout.once('data', () => child.stdout.destroy());
  const closed = await done;
  t.is(closed.code, 0, closed.stderr);
  t.is(closed.stderr, '');
});

test('ooda events --last N prints the newest N events oldest first, across pages; it is refused with --limit', async (t) => {
  const db = await heartbeatLog();
  const seqs = async (...args: string[]) => {
    const result = await runCli(['events', '--db', db, ...args]);
    t.is(result.code, 0, result.stderr);
    return events(result.stdout).map((e) => e.seq);
  };
  t.deepEqual(await seqs('--last', '3'), [2598, 2599, 2600]);
  t.deepEqual(await seqs('--session', 's1', '--last', '1200'), Array.from({ length: 1200 }, (_, i) => 201 + 2 * i));
  t.deepEqual(await seqs('--session', 's2', '--kind', 'heartbeat', '--last', '5000'), Array.from({ length: 1300 }, (_, i) => 2 * (i + 1)));
  t.deepEqual(await seqs('--last', '0'), []);
  const both = await runCli(['events', '--db', db, '--last', '2', '--limit', '2']);
  t.is(both.code, 2);
  t.regex(both.stderr, /--limit cannot be combined with --last/);
  t.regex((await runCli(['events', '--help'])).stdout, /--last N +the newest N events \(printed oldest first\); not with --limit/);
});

test('a writable store in a folder this user may not write is refused naming the folder and the side files a writer creates, not as a read-only store', async (t) => {
  const { dir, db, files, as } = await readOnlyStore(t, 'foldered.db');
  chmodSync(db, 0o644);
  chmodSync(dir, 0o555);
  const refused = await as(['resume', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1']);
  t.is(refused.code, 1, refused.stderr);
  const folder = dir.replace(/[.]/g, '\\.');
  t.regex(refused.stderr, new RegExp(`ooda: store: open: .*foldered\\.db cannot be written: its folder ${folder} is not writable by this user, and a writer creates .*foldered\\.db-wal, .*foldered\\.db-shm beside it: make the folder writable for this user, or pass another --db\n$`));
  t.deepEqual(readdirSync(dir).sort(), files);
  chmodSync(dir, 0o755);
  const resumed = await as(['resume', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1']);
  t.is(resumed.code, 0, resumed.stderr);
});
