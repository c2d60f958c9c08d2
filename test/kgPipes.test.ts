/**
 * A named pipe given to --kg (`mkfifo`, or the shell's `<(cmd)`) is a stream
 * like stdin: read once, by the run, without blocking it. The up-front check
 * that a --kg file is readable opened it, taking the writer's connection (its
 * lines were lost) and, with no writer yet, blocking the main thread, so
 * SIGINT and SIGTERM went unhandled; the run's own open then waited on a
 * thread of the pool, which kept the process alive after it had ended.
 */
import test from 'ava';
import { spawn, execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, OODA, startCli } from './helpers/cli.js';
import { untilHeldOpen } from './helpers/processes.js';

const FACT = (object: string) => JSON.stringify({ type: 'fact', subject: 'Mars', predicate: 'has moon', object });

/** A new named pipe in a folder of its own. */
function fifo(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ooda-kg-pipe-')), 'kg.fifo');
  execFileSync('mkfifo', [path]);
  return path;
}

/** Writes `text` to the pipe `path`, whose reader is there (a writer's open would fail with ENXIO otherwise, not block), and closes it. */
function writeToPipe(path: string, text: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

test('run --kg: a named pipe\u2019s lines and a <(cmd) pipe\u2019s are read once, by the run, then the goal', async (t) => {
  const pipe = fifo();
  // bash gives <(printf …) as /dev/fd/N, as a user's shell does.
  const script = `exec "${process.execPath}" "$0" run --no-db --no-stdin --heartbeat 0 --goal 'Find moons of Mars' --kg <(printf '%s\\n' '${FACT('Deimos')}') --kg "$1"`;
  const child = spawn('bash', ['-c', script, OODA, pipe], { stdio: 'pipe' });
  t.teardown(() => child.kill('SIGKILL'));
  const result = finished(child, 25_000);
  child.stdin.end();
  await untilHeldOpen(child.pid!, pipe);
  writeToPipe(pipe, `${FACT('Phobos')}\n`);
  const { code, stdout, stderr } = await result;
  t.is(code, 0, stderr);
  const perceived = events(stdout).filter((e) => e.kind === 'perceived');
  t.is(perceived.length, 3);
  const [substituted, named, goal] = perceived;
  t.like(substituted, { signalType: 'fact' });
  t.regex(String(substituted!.source), /^\/dev\/fd\/\d+$/);
  t.like(named, { source: pipe, signalType: 'fact' });
  t.like(goal, { source: 'cli', signalType: 'goal' });
  t.deepEqual(
    events(stdout)
      .filter((e) => e.kind === 'fact')
      .map((e) => e.object),
    ['Deimos', 'Phobos'],
  );
});

for (const [args, signal, code] of [
  [['run', '--no-db', '--no-stdin', '--heartbeat', '0'], 'SIGTERM', 143],
  [['run', '--no-stdin', '--heartbeat', '0'], 'SIGINT', 130],
  [['plan'], 'SIGTERM', 143],
] as const) {
  test(`${args.join(' ')} --kg: a named pipe with no writer is waited for without blocking: ${signal} exits ${code}`, async (t) => {
    const pipe = fifo();
    const child = startCli([...args, '--goal', 'x', '--kg', pipe]);
    t.teardown(() => child.kill('SIGKILL'));
    const result = finished(child, 20_000);
    child.stdin.end();
    await untilHeldOpen(child.pid!, pipe);
    child.kill(signal);
    const { code: exit, stderr } = await result;
    t.is(exit, code, stderr);
    t.regex(stderr, new RegExp(`${signal} received`));
  });
}
