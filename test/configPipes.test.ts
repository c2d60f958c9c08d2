/**
 * `--config FILE` and `--token-file FILE` may be pipes (`mkfifo`, or the
 * shell's `<(cmd)`): read once, without blocking the event loop. They were
 * read with readFileSync: with no writer yet, the main thread blocked in
 * open() and SIGINT / SIGTERM went unhandled; and a run resuming a stored
 * session read --config a second time, finding a `<(cmd)` pipe empty
 * ("not valid JSON: Unexpected end of JSON input").
 */
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, OODA, runCli, startCli } from './helpers/cli.js';
import { untilHeldOpen } from './helpers/processes.js';

/** A new named pipe in a folder of its own. */
function fifo(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ooda-config-pipe-')), 'pipe');
  execFileSync('mkfifo', [path]);
  return path;
}

for (const [args, flag, signal, code] of [
  [['run', '--no-db', '--no-stdin'], '--config', 'SIGTERM', 143],
  [['plan', '--goal', 'x'], '--config', 'SIGINT', 130],
  [['run', '--no-db', '--no-stdin', '--ws', '0'], '--token-file', 'SIGTERM', 143],
] as const) {
  test(`${args[0]} ${flag}: a named pipe with no writer is waited for without blocking: ${signal} exits ${code}`, async (t) => {
    const pipe = fifo();
    const child = startCli([...args, flag, pipe]);
    t.teardown(() => child.kill('SIGKILL'));
    const result = finished(child, 20_000);
    child.stdin.end();
    await untilHeldOpen(child.pid!, pipe);
    child.kill(signal);
    const { code: exit, stdout, stderr } = await result;
    t.is(exit, code, stderr);
    t.is(stderr, `ooda: ${signal} received while ooda ${args[0]} ran: exiting\n`);
    t.is(stdout, '');
  });
}

test('run --config <(cmd) on a store holding a session: the file is read once, and the resumed session runs with it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-config-pipe-'));
  const db = join(dir, 'ooda.db');
  const first = await runCli(['run', '--db', db, '--no-stdin', '--heartbeat', '0', '--max-cycles', '1', '--goal', 'Find moons of Mars']);
  t.is(first.code, 0, first.stderr);
  // bash gives <(printf …) as /dev/fd/N, as a user's shell does.
  const script = `exec "${process.execPath}" "$0" run --db "$1" --no-stdin --heartbeat 0 --max-cycles 1 --config <(printf '{"seed":3}')`;
  const child = spawn('bash', ['-c', script, OODA, db], { stdio: 'pipe' });
  t.teardown(() => child.kill('SIGKILL'));
  const result = finished(child, 20_000);
  child.stdin.end();
  const { code, stderr } = await result;
  t.is(code, 0, stderr);
  t.regex(stderr, /resuming it at cycle 1/);
  const sessions = await runCli(['sessions', '--db', db, '--json']);
  const [, resumed] = sessions.stdout.trim().split('\n').map((line) => JSON.parse(line) as { config: { seed: number } });
  t.is(resumed?.config.seed, 3);
});
