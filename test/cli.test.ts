import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, runCli, startCli } from './helpers/cli.js';

test('ooda run: bad lines mixed in are each rejected with their line number; good lines are processed; exit 0', async (t) => {
  const lines = [
    '{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}',
    'this is not json',
    '{"type":"teleport","to":"Mars"}',
    '{"type":"fact","subject":"Mars","predicate":"has moon"}',
    `{"type":"input","text":"${'x'.repeat(2 * 1024 * 1024)}"}`,
    '{"type":"fact","subject":"Mars","predicate":"has moon","object":"Deimos"}',
    '',
    '{"type":"goal","description":"Find moons of Mars","priority":200}',
  ];
  const result = await runCli(['run', '--goal', 'Find moons of Mars', '--max-cycles', '20', '--heartbeat', '0'], `${lines.join('\n')}\n`);
  t.is(result.code, 0, result.stderr);
  const out = events(result.stdout);
  const rejected = out.filter((e) => e.kind === 'rejected').map((e) => [e.line, String(e.reason).split(':')[0]]);
  t.deepEqual(rejected, [
    [2, 'not JSON'],
    [3, 'unknown signal type "teleport" (expected one of goal, fact, input, sensor, command)'],
    [4, 'invalid fact signal'],
    [5, 'line 5 is longer than 1048576 bytes'],
  ]);
  const perceivedLines = out.filter((e) => e.kind === 'perceived' && e.source === 'stdin').map((e) => e.line);
  t.deepEqual(perceivedLines, [1, 6, 8]);
  t.true(out.some((e) => e.kind === 'decision' && /^\[score=-?\d+\.\d\d: base=/.test(String(e.breakdown))));
  const seqs = out.map((e) => e.seq as number);
  t.true(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!), 'seq strictly increasing');
  t.regex(result.stderr, /session .* ended/);
});

test('ooda run --ws: at --max-cycles the lines already piped in are still read to their end; the WebSocket clients, which never end, do not hold the run', async (t) => {
  const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ type: 'fact', subject: `Moon ${i}`, predicate: 'orbits', object: 'Mars' }));
  const result = await runCli(['run', '--no-db', '--ws', '0', '--max-cycles', '1', '--heartbeat', '0', '--goal', 'Find moons of Mars'], `${lines.join('\n')}\n`);
  t.is(result.code, 0, result.stderr);
  const out = events(result.stdout);
  t.is(out.filter((e) => e.kind === 'perceived' && e.source === 'stdin').length, 2000, 'every line taken in');
  t.like(out.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 1 });
});

test('ooda run: SIGTERM mid-run stops gracefully with exit 143 and every accepted signal accounted for', async (t) => {
  const child = startCli(['run', '--pace', '5', '--max-cycles', '100000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], { OODA_STALL_THRESHOLD: '1000000' });
  const result = finished(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 1; i <= 20; i++) child.stdin.write(`{"type":"fact","subject":"s${i}","predicate":"p","object":"o${i}"}\n`);
  for (let waited = 0; !out.includes('"line":20') && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGTERM');
  const { code, stdout, stderr } = await result;
  t.is(code, 143, stderr);
  const all = events(stdout);
  t.deepEqual(all.filter((e) => e.kind === 'perceived' && e.source === 'stdin').map((e) => e.line), Array.from({ length: 20 }, (_, i) => i + 1));
  t.is(all.filter((e) => e.kind === 'fact').length, 20);
  t.true(all.some((e) => e.kind === 'decision'), 'cycles were running');
  t.like(all.at(-1), { kind: 'session', state: 'stopped', reason: 'SIGTERM' });
  t.regex(stderr, /SIGTERM received/);
});

/**
 * SIGHUP (the terminal or ssh session closing) used to kill the run on the
 * spot with Node's default: no line on stderr, the rows still queued never
 * written, the session left `running`.
 */
test('ooda run: SIGHUP mid-run stops gracefully with exit 129; the store holds every event printed and the session is ended', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-sighup-')), 'run.db');
  const child = startCli(['run', '--db', db, '--pace', '5', '--max-cycles', '100000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], { OODA_STALL_THRESHOLD: '1000000' });
  const result = finished(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 1; i <= 20; i++) child.stdin.write(`{"type":"fact","subject":"s${i}","predicate":"p","object":"o${i}"}\n`);
  for (let waited = 0; !out.includes('"line":20') && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGHUP');
  const { code, signal, stdout, stderr } = await result;
  t.is(signal, null, 'not killed by the signal');
  t.is(code, 129, stderr);
  t.regex(stderr, /SIGHUP received: stopping/);
  const printed = events(stdout);
  t.like(printed.at(-1), { kind: 'session', state: 'stopped', reason: 'SIGHUP' });
  const file = new Database(db, { readonly: true });
  t.teardown(() => file.close());
  t.is((file.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n, printed.length, 'every printed event is stored');
  t.like(file.prepare('SELECT status, reason FROM sessions').get(), { status: 'ended', reason: 'SIGHUP' });
  t.is((file.prepare('SELECT reason FROM snapshots ORDER BY id DESC LIMIT 1').get() as { reason: string }).reason, 'exit');
});

test('ooda run | head: a closed stdout ends the run quietly', async (t) => {
  const child = startCli(['run', '--pace', '1', '--max-cycles', '100000', '--heartbeat', '0', '--no-stdin', '--goal', 'Find qzx wvy'], { OODA_STALL_THRESHOLD: '1000000' });
  const result = finished(child);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  const { code, stderr } = await result;
  t.is(code, 0);
  t.notRegex(stderr, /EPIPE|Error|\n\s+at /, stderr);
  t.regex(stderr, /stdout closed/);
});

test('usage errors name the flag and exit 2; a bad config value names the key', async (t) => {
  const unknown = await runCli(['run', '--frob', 'x']);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /Unknown option '--frob'/);
  const notNumber = await runCli(['run', '--max-cycles', 'many']);
  t.is(notNumber.code, 2);
  t.regex(notNumber.stderr, /--max-cycles: expected a whole number, got "many"/);
  const badEnv = await runCli(['run', '--no-stdin'], '', { OODA_CONSOLIDATION_PRESSURE: '7' });
  t.is(badEnv.code, 2);
  t.regex(badEnv.stderr, /config environment: OODA_CONSOLIDATION_PRESSURE \(consolidationPressure\): /);
  const unknownCommand = await runCli(['fly']);
  t.is(unknownCommand.code, 2);
  t.regex(unknownCommand.stderr, /unknown command "fly"/);
});

test('ooda --help lists the commands and ooda --version prints the version', async (t) => {
  const help = await runCli(['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /run\s+run the agent/);
  const version = await runCli(['--version']);
  t.regex(version.stdout, /^ooda-rx \d+\.\d+\.\d+/);
});
