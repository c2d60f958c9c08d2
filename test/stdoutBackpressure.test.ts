/**
 * A reader of `ooda run`'s stdout that stops reading holds the run, as a
 * store that falls behind does: once stdout holds 8 MiB not yet written,
 * stdin is no longer read (so memory stays bounded) and stderr says why;
 * when the reader reads again, every line accepted is there.
 */
import test from 'ava';
import { events, finished, startCli, until } from './helpers/cli.js';

const LINES = 60_000;

function fact(i: number): string {
  return `${JSON.stringify({ type: 'fact', subject: `star${i}`, predicate: 'has planet', object: `planet${i}` })}\n`;
}

test('run: stdout that is not read holds stdin instead of buffering every event; reading it again brings every one', async (t) => {
  const child = startCli(['run', '--no-db', '--heartbeat', '0', '--max-cycles', '10']);
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.pause();
  // Write every line as the pipe takes it; `written` turns true once the child has taken them all.
  let written = false;
  let i = 0;
  const write = (): void => {
    while (i < LINES) if (!child.stdin.write(fact(i++))) return void child.stdin.once('drain', write);
    child.stdin.end(() => (written = true));
  };
  write();

  await until(() => (written ? 'all input taken' : stderr), /stdout is not being read|all input taken/, 20_000);
  t.false(written, 'the child read all its input while nothing read its stdout');
  t.regex(stderr, /^ooda: stdout is not being read as fast as events come: cycles, stdin and heartbeats are held while it drains \(said once\)$/m);
  // It stays held while nobody reads.
  await new Promise((r) => setTimeout(r, 500));
  t.false(written);

  const result = finished(child, 60_000);
  child.stdout.resume();
  const { code, stdout } = await result;
  t.is(code, 0, stderr);
  t.true(written);
  const perceived = events(stdout).filter((e) => e.kind === 'perceived');
  t.is(perceived.length, LINES);
  t.is(perceived.at(-1)!.line, LINES);
});
