/**
 * Stdout that cannot be written (a full disk: /dev/full) is not a reader that
 * went away: the command fails (exit 1) with one line saying the output is
 * incomplete, instead of ending with exit 0 as if it had printed everything;
 * `ooda run` still writes and closes its store.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OODA, runCli } from './helpers/cli.js';

/** Runs the CLI with stdout on /dev/full (every write fails with ENOSPC) and `input` on stdin (none: no stdin); bounded by `timeoutMs`. */
function intoFullDisk(args: string[], timeoutMs = 30_000, input?: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [OODA, ...args], { stdio: [input === undefined ? 'ignore' : 'pipe', openSync('/dev/full', 'w'), 'pipe'] });
  if (input !== undefined) child.stdin!.end(input);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const FAILED = /^ooda: cannot write stdout \(ENOSPC: [^)]*\): the output stops there, incomplete$/m;

test('events, sessions and replay into a full disk fail with exit 1 and say so', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-full-')), 's.db');
  const made = await runCli(['run', '--db', db, '--max-cycles', '3', '--heartbeat', '0', '--no-stdin', '--goal', 'Find moons of Mars']);
  t.is(made.code, 0, made.stderr);
  for (const args of [['events'], ['events', '--last', '2'], ['sessions'], ['sessions', '--json'], ['replay']]) {
    const { code, stderr } = await intoFullDisk([...args, '--db', db]);
    t.is(code, 1, `${args.join(' ')}: ${stderr}`);
    t.regex(stderr, FAILED, args.join(' '));
    t.notRegex(stderr, /\n\s+at /, args.join(' '));
  }
});

test('run into a full disk fails with exit 1, its session stored and ended as stdout failed', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-full-')), 'r.db');
  const { code, stderr } = await intoFullDisk(['run', '--db', db, '--max-cycles', '5', '--heartbeat', '0', '--no-stdin', '--goal', 'Find moons of Mars']);
  t.is(code, 1, stderr);
  t.regex(stderr, FAILED);
  const listed = await runCli(['sessions', '--db', db, '--json']);
  t.is(listed.code, 0, listed.stderr);
  const sessions = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { status: string; reason: string; events: number });
  t.is(sessions.length, 1);
  t.like(sessions[0], { status: 'ended', reason: 'stdout failed' });
  t.true(sessions[0]!.events > 0);
});

test('repl into a full disk fails with exit 1 and says so, without a stack trace', async (t) => {
  const { code, stderr } = await intoFullDisk(['repl'], 30_000, 'help\ng Find moons of Mars\ns 2\nq\n');
  t.is(code, 1, stderr);
  t.regex(stderr, FAILED);
  t.notRegex(stderr, /\n\s+at /);
});
