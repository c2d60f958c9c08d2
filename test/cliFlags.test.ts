/**
 * Numeric and text flags are checked by the tool itself: a period past the
 * longest timer Node honours, a negative number and an empty session id are
 * usage errors (exit 2) naming the flag and the limit; a flag value is checked
 * even where it would not be used. A flag given twice is refused unless it
 * is repeatable. A setting that a flag makes ineffective is warned about.
 */
import test from 'ava';
import { parseFlags } from '../bin/cli.js';
import { closestFlag } from '../bin/flags.js';
import { COMMANDS } from '../bin/commands/index.js';
import { runCli } from './helpers/cli.js';

const usage = async (args: string[], env: Record<string, string> = {}) => runCli(['run', '--no-db', '--no-stdin', ...args], '', env);

test('ms flags past 2147483647 are refused naming the flag and the maximum', async (t) => {
  for (const flag of ['--pace', '--heartbeat', '--vitals']) {
    const { code, stderr } = await usage([flag, '2147483648']);
    t.is(code, 2, `${flag}: ${stderr}`);
    t.is(stderr, `ooda: ${flag}: must be at most 2147483647 ms (the longest timer Node honours), got 2147483648\n`);
  }
  const env = await usage([], { OODA_HEARTBEAT_MS: '99999999999' });
  t.is(env.code, 2);
  t.regex(env.stderr, /config environment: OODA_HEARTBEAT_MS \(heartbeatMs\): Too big: expected number to be <=2147483647/);
});

test('negative numbers get the flag\u2019s own message, not parseArgs\u2019 "ambiguous"', async (t) => {
  for (const [flag, value] of [['--max-cycles', '-5'], ['--heartbeat', '-1']] as const) {
    const { code, stderr } = await usage([flag, value]);
    t.is(code, 2, stderr);
    t.is(stderr, `ooda: ${flag}: must be at least 0, got ${value}\n`);
  }
  const seed = await usage(['--seed', '-7', '--max-cycles', '0']);
  t.is(seed.code, 0, seed.stderr);
});

test('an empty --session is a usage error, and so is one of only whitespace, said so', async (t) => {
  const { code, stderr } = await usage(['--session', '', '--max-cycles', '0']);
  t.is(code, 2);
  t.is(stderr, 'ooda: --session: expected a session id, got an empty string\n');
  const blank = await usage(['--session', '  ', '--max-cycles', '0']);
  t.is(blank.code, 2);
  t.is(blank.stderr, 'ooda: --session: expected a session id, got only whitespace ("  ")\n');
});

test('a --session with a control character (a newline, a tab) is a usage error: it would break the sessions table and every line naming it; spaces and other letters are fine', async (t) => {
  for (const [id, shown] of [['two\nlines', '"two\\nlines"'], ['a\tb', '"a\\tb"'], ['bell\u0007', '"bell\\u0007"'], ['a\u007fb', '"a\\u007fb"'], ['c1\u0085', '"c1\\u0085"']]) {
    const { code, stderr } = await usage(['--session', id!, '--max-cycles', '0']);
    t.is(code, 2, stderr);
    t.is(stderr, `ooda: --session: a session id may not contain control characters (newline, tab, …), got ${shown}\n`, 'each shown escaped, DEL and C1 ones too');
  }
  const replaced = await usage(['--session', 'a\ufffdb', '--max-cycles', '0']);
  t.is(replaced.code, 2, replaced.stderr);
  t.is(replaced.stderr, 'ooda: --session: a session id may not contain U+FFFD, which stands for bytes that are not UTF-8 (what the shell passed was not UTF-8?), got "a\\ufffdb"\n');
  const fine = await usage(['--session', 'mon été ☃ #2', '--max-cycles', '0']);
  t.is(fine.code, 0, fine.stderr);
  t.regex(fine.stderr, /session mon été ☃ #2 started/);
});

test('--synchronous is checked even without a store, and needs one', async (t) => {
  const bad = await usage(['--synchronous', 'off']);
  t.is(bad.code, 2, bad.stderr);
  t.is(bad.stderr, 'ooda: --synchronous: expected normal or full, got "off"\n');
  for (const flag of ['--synchronous full', '--fresh']) {
    const refused = await usage(flag.split(' '));
    t.is(refused.code, 2, refused.stderr);
    t.is(refused.stderr, `ooda: --no-db cannot be combined with ${flag.split(' ')[0]}\n`);
  }
  const demo = await runCli(['demo', '--synchronous', 'full']);
  t.is(demo.code, 2, demo.stderr);
  t.is(demo.stderr, 'ooda: --synchronous needs a store: add --db FILE\n');
});

test('an empty --goal or --config is a usage error naming the flag', async (t) => {
  for (const command of [['run', '--no-db', '--no-stdin'], ['plan'], ['reflect']]) {
    const goal = await runCli([...command, '--goal', 'ok', '--goal', ' ']);
    t.is(goal.code, 2, `${command[0]}: ${goal.stderr}`);
    t.is(goal.stderr, 'ooda: --goal: expected a goal description, got only whitespace (" ")\n');
  }
  const config = await usage(['--config', '']);
  t.is(config.code, 2, config.stderr);
  t.is(config.stderr, 'ooda: --config: expected a file name, got an empty string\n');
});

test('a flag that is not repeatable, given twice, is a usage error naming it, for every command; repeatable ones collect', async (t) => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    for (const [flag, { type, multiple }] of Object.entries(command.flags)) {
      const twice = type === 'string' ? [`--${flag}`, 'a', `--${flag}`, 'b'] : [`--${flag}`, `--${flag}`];
      if (multiple) t.deepEqual(parseFlags(twice, command.flags)[flag], ['a', 'b'], `${name} --${flag}`);
      else {
        const expected = type === 'string' ? `--${flag}: given twice ("a", "b"); it takes one value` : `--${flag}: given twice; give it once`;
        t.throws(() => parseFlags(twice, command.flags), { name: 'UsageError', message: expected }, `${name} --${flag}`);
      }
    }
  }
  const kinds = await runCli(['events', '--kind', 'decision', '--kind', 'action', '--db', 'missing.db']);
  t.is(kinds.code, 2, kinds.stderr);
  t.is(kinds.stderr, 'ooda: --kind: given twice ("decision", "action"); it takes one value\n');
  const sessions = await runCli(['events', '--session', 'A', '--session=B', '--session', 'C']);
  t.is(sessions.code, 2, sessions.stderr);
  t.is(sessions.stderr, 'ooda: --session: given 3 times ("A", "B", "C"); it takes one value\n');
});

test('with a store, --heartbeat 0 and autoSaveMs > 0 warn once at start that auto-save never runs', async (t) => {
  const warning = 'ooda: autoSaveMs 100 has no effect: auto-save runs on the heartbeat, which --heartbeat 0 turns off\n';
  const run = await runCli(['run', '--heartbeat', '0', '--max-cycles', '0', '--no-stdin'], '', { OODA_AUTO_SAVE_MS: '100' });
  t.is(run.code, 0, run.stderr);
  t.true(run.stderr.startsWith(warning), run.stderr);
  t.is(run.stderr.split(warning).length, 2, 'once');
  const fromConfig = await runCli(['run', '--max-cycles', '0', '--no-stdin'], '', { OODA_HEARTBEAT_MS: '0' });
  t.regex(fromConfig.stderr, /^ooda: autoSaveMs 300000 has no effect: auto-save runs on the heartbeat, which heartbeatMs 0 turns off \(--heartbeat MS turns it on\)\n/);
  for (const [heartbeat, store, autoSave] of [
    ['0', '--no-db', '100'],
    ['0', '--fresh', '0'],
    ['50', '--fresh', '100'],
  ]) {
    const quiet = await runCli(['run', '--heartbeat', heartbeat, store!, '--max-cycles', '0', '--no-stdin'], '', { OODA_AUTO_SAVE_MS: autoSave! });
    t.is(quiet.code, 0, quiet.stderr);
    t.notRegex(quiet.stderr, /autoSaveMs/, `--heartbeat ${heartbeat} ${store} autoSaveMs ${autoSave}`);
  }
});

test('--origin, --allow-host and --max-clients are checked, and need --ws like --host and --token', async (t) => {
  const cases: [string[], string][] = [
    [['--origin', 'http://localhost:3000'], '--origin needs --ws PORT'],
    [['--allow-host', 'agent.lan'], '--allow-host needs --ws PORT'],
    [['--ws', '0', '--allow-host', 'agent.lan:8080'], '--allow-host: expected a host name such as agent.lan (no scheme, port or path) or *, got "agent.lan:8080"'],
    [['--ws', '0', '--allow-host', 'http://agent.lan'], '--allow-host: expected a host name such as agent.lan (no scheme, port or path) or *, got "http://agent.lan"'],
    [['--max-clients', '5'], '--max-clients needs --ws PORT'],
    [['--ws', '0', '--origin', 'http://localhost:3000/'], '--origin: expected an origin as browsers send it (scheme://host[:port], no path or trailing slash): "http://localhost:3000", got "http://localhost:3000/"'],
    [['--ws', '0', '--origin', 'localhost'], '--origin: expected an origin such as https://example.com:8443 or *, got "localhost"'],
    [['--ws', '0', '--max-clients', '0'], '--max-clients: must be at least 1, got 0'],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await usage(args);
    t.is(code, 2, stderr);
    t.is(stderr, `ooda: ${message}\n`);
  }
});

test('a mistyped flag is answered with one the command takes only when most of it matches: --id, --tag and --web are not taken for --db, --kg and --ws', (t) => {
  const { run, events } = COMMANDS;
  t.is(closestFlag('goals', run!.flags), 'goal');
  t.is(closestFlag('max-cycle', run!.flags), 'max-cycles');
  t.is(closestFlag('lmit', events!.flags), 'limit');
  t.is(closestFlag('kb', run!.flags), 'kg');
  t.is(closestFlag('Goal', run!.flags), 'goal');
  for (const name of ['id', 'tag', 'web', 'dir', 'to', 'x']) t.is(closestFlag(name, run!.flags), undefined, `--${name}`);
});

test('--goals, seed 001\u2019s spelling, is taken as --goal wherever --goal is, in the order given, and its help line says so', async (t) => {
  const { run, plan, resume, demo } = COMMANDS;
  for (const command of [run!, plan!, resume!, demo!]) {
    t.deepEqual(parseFlags(['--goals', 'Find moons of Mars', '--goal', 'Classify planets', '--goals=Name the rings'], command.flags).goal, ['Find moons of Mars', 'Classify planets', 'Name the rings']);
    t.regex(command.usage, /\n {2}--goal TEXT +add a goal \(repeatable\); also --goals\n/);
  }
  const planned = await runCli(['plan', '--goals', 'Find moons of Mars', '--goal', 'Classify planets']);
  t.is(planned.code, 0, planned.stderr);
  t.regex(planned.stdout, /^goal-1 "Find moons of Mars".*\n(?:.*\n)*goal-2 "Classify planets"/);
  const empty = await usage(['--goals', '']);
  t.is(empty.code, 2);
  t.is(empty.stderr, 'ooda: --goal: expected a goal description, got an empty string\n');
});
