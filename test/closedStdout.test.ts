/**
 * A reader that closes stdout early (`ooda … | head`) ends every command
 * quietly: no EPIPE stack trace, exit 0, and a persisted run is still stored.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, runCli, startCli, type CliResult } from './helpers/cli.js';

/** Runs the CLI and closes its stdout after `afterBytes` bytes have arrived (0: before it writes anything). */
async function closedEarly(args: string[], afterBytes: number): Promise<CliResult> {
  const child = startCli(args);
  const result = finished(child);
  child.stdin.end();
  if (afterBytes > 0) {
    let seen = 0;
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => (seen += d.length) >= afterBytes && resolve()));
  }
  child.stdout.destroy();
  return result;
}

function quiet(t: { is(a: unknown, b: unknown, m?: string): void; notRegex(s: string, r: RegExp, m?: string): void }, { code, stderr }: CliResult): void {
  t.is(code, 0, stderr);
  t.notRegex(stderr, /EPIPE|Error|\n\s+at /, stderr);
}

test('run --format pretty --db | head: stops gracefully, exit 0, and the session is stored', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-closed-')), 'h.db');
  const run = await closedEarly(['run', '--db', db, '--format', 'pretty', '--pace', '1', '--max-cycles', '100000', '--heartbeat', '0', '--no-stdin', '--goal', 'Find qzx wvy'], 1);
  quiet(t, run);
  t.regex(run.stderr, /ended: stdout closed/);
  const listed = await runCli(['sessions', '--db', db, '--json']);
  t.is(listed.code, 0, listed.stderr);
  const sessions = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { reason: string; events: number });
  t.is(sessions.length, 1);
  t.like(sessions[0], { reason: 'stdout closed' });
  t.true(sessions[0]!.events > 0);
});

test('demo | head: ends quietly with exit 0', async (t) => {
  quiet(t, await closedEarly(['demo'], 1));
});

test('sessions --json, sessions and replay into a closed pipe end quietly with exit 0', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-closed-')), 'd.db');
  for (const fresh of [[], ['--fresh']]) {
    const made = await runCli(['run', '--db', db, ...fresh, '--max-cycles', '2', '--heartbeat', '0', '--no-stdin', '--goal', 'Find moons of Mars']);
    t.is(made.code, 0, made.stderr);
  }
  quiet(t, await closedEarly(['sessions', '--db', db, '--json'], 0));
  quiet(t, await closedEarly(['sessions', '--db', db], 0));
  quiet(t, await closedEarly(['replay', '--db', db], 0));
});

test('repl | head: a reader that goes away while the session is open ends it quietly, exit 0', async (t) => {
  const child = startCli(['repl']);
  const result = finished(child);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  // Lines typed after the reader left make the REPL write again (help, a step's events, the prompt).
  child.stdin.write('help\ng Find moons of Mars\ns 2\n');
  await new Promise((r) => setTimeout(r, 300));
  child.stdin.end('help\n');
  quiet(t, await result);
});
