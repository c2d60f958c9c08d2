/**
 * Each command's --help lists exactly the flags it accepts, with the defaults
 * it really runs with: resume does not offer the flags it cannot take, demo
 * states its own defaults (a shorter run, a readable log, no stdin), and the
 * README's exit codes are the ones --help lists.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../bin/commands/index.js';
import { events, runCli } from './helpers/cli.js';

/** The flags an `ooda COMMAND --help` lists under "options:". */
function listedFlags(help: string): string[] {
  const options = help.slice(help.indexOf('\noptions:\n'));
  return [...options.matchAll(/^ {2}(?:-h, )?--([a-z-]+)/gm)].map((m) => m[1]!);
}

/** The default a help line states for `--flag` ("(default X)"). */
function statedDefault(help: string, flag: string): string {
  const line = help.split('\n').find((l) => l.startsWith(`  --${flag} `));
  const found = line?.match(/\(default (\w+)/);
  if (!found) throw new Error(`--help states no default for --${flag}`);
  return found[1]!;
}

/** The configuration a run stored for its session. */
function storedConfig(db: string): { maxCycles: number; heartbeatMs: number } {
  const store = new Database(db, { readonly: true });
  try {
    return JSON.parse((store.prepare('SELECT config FROM sessions').get() as { config: string }).config) as { maxCycles: number; heartbeatMs: number };
  } finally {
    store.close();
  }
}

for (const [name, command] of Object.entries(COMMANDS)) {
  test(`ooda ${name} --help lists exactly the flags ${name} accepts`, async (t) => {
    const { code, stdout } = await runCli([name, '--help']);
    t.is(code, 0);
    t.deepEqual(listedFlags(stdout), [...Object.keys(command.flags), 'help']);
  });
}

test('ooda help COMMAND prints that command\'s help, as ooda COMMAND --help does; an unknown one is a usage error', async (t) => {
  const asked = await runCli(['help', 'run']);
  t.is(asked.code, 0, asked.stderr);
  t.is(asked.stdout, (await runCli(['run', '--help'])).stdout);
  const unknown = await runCli(['help', 'frob']);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /unknown command "frob" \(try 'ooda --help'\)/);
  t.regex((await runCli(['help'])).stdout, /^usage: ooda COMMAND \[options\]/);
});

test('resume offers neither --fresh nor --no-db, cycle no --max-cycles, demo no --no-stdin; each refuses it saying what to run instead', async (t) => {
  const { stdout } = await runCli(['resume', '--help']);
  t.false(listedFlags(stdout).includes('fresh'));
  t.false(listedFlags(stdout).includes('no-db'));
  t.false(listedFlags((await runCli(['cycle', '--help'])).stdout).includes('max-cycles'));
  for (const [args, said] of [
    [['resume', '--fresh'], '--fresh: ooda resume does not take it: it continues the stored session; ooda run --fresh starts a new mind'],
    [['resume', '--no-db'], '--no-db: ooda resume does not take it: it continues a session of the store; ooda run --no-db runs without one'],
    [['cycle', '--max-cycles', '3'], '--max-cycles: ooda cycle does not take it: it runs one cycle; ooda run --max-cycles N runs N'],
    [['demo', '--no-stdin'], '--no-stdin: ooda demo does not take it: it reads no stdin anyway; pipe signals to ooda run'],
  ] as const) {
    const refused = await runCli([...args]);
    t.is(refused.code, 2, refused.stderr);
    t.is(refused.stderr, `ooda: ${said}\n`);
  }
});

test('run and demo run with the defaults their --help states', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-help-'));
  for (const name of ['run', 'demo']) {
    const { stdout: help } = await runCli([name, '--help']);
    const db = join(dir, `${name}.db`);
    const ran = await runCli([name, '--db', db]);
    t.is(ran.code, 0, ran.stderr);
    t.like(storedConfig(db), { maxCycles: Number(statedDefault(help, 'max-cycles')), heartbeatMs: Number(statedDefault(help, 'heartbeat')) }, name);
    const format = statedDefault(help, 'format');
    const firstLine = ran.stdout.split('\n')[0]!;
    t.is(format === 'ndjson', firstLine.startsWith('{'), `${name} prints ${format}: ${firstLine}`);
  }
  const { stdout: demoHelp } = await runCli(['demo', '--help']);
  t.like({ maxCycles: statedDefault(demoHelp, 'max-cycles'), heartbeat: statedDefault(demoHelp, 'heartbeat'), format: statedDefault(demoHelp, 'format') }, { maxCycles: '60', heartbeat: '0', format: 'pretty' });
});

test('demo reads no stdin and says so; its defaults sit under the environment like any default', async (t) => {
  const { stdout: help } = await runCli(['demo', '--help']);
  t.regex(help, /stdin is not read/);
  t.false(listedFlags(help).includes('no-stdin'));
  const piped = await runCli(['demo', '--format', 'ndjson'], '{"type":"goal","description":"Piped goal"}\n');
  t.is(piped.code, 0, piped.stderr);
  t.false(events(piped.stdout).some((e) => e.kind === 'perceived' && e.source === 'stdin'));
  const short = await runCli(['demo'], '', { OODA_MAX_CYCLES: '2' });
  t.is(short.code, 0, short.stderr);
  t.regex(short.stderr, /demo ended \(max cycles reached\) after 2 cycle\(s\): /);
});

test('the README lists the exit codes run --help lists', async (t) => {
  const { stdout } = await runCli(['run', '--help']);
  const codes = (text: string) => [...text.matchAll(/`?(\d+)`? ([a-zA-Z]+)/g)].map((m) => m[1]);
  const helpCodes = codes(stdout.slice(stdout.indexOf('exit codes:')));
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const bullet = readme.slice(readme.indexOf('- Exit codes:'), readme.indexOf('.', readme.indexOf('- Exit codes:')));
  t.deepEqual(codes(bullet), helpCodes);
  t.deepEqual(helpCodes, ['0', '1', '2', '130', '143', '129']);
});

test('resume --help does not offer the :memory: store it refuses', async (t) => {
  const { stdout } = await runCli(['resume', '--help']);
  const db = stdout.split('\n').find((l) => l.startsWith('  --db '));
  t.regex(db ?? '', /not :memory:/, db);
  const refused = await runCli(['resume', '--db', ':memory:', '--no-stdin']);
  t.is(refused.code, 1, refused.stderr);
  t.regex(refused.stderr, /:memory: is a new, empty store each time, with no session/);
});
