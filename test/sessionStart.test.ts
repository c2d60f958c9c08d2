/**
 * On a store, a run starts once the session's start (its row and first
 * snapshot) is committed: `kill -9` at any moment after `ooda run` says
 * `started` leaves a session `ooda resume` continues. The start used to be
 * committed up to a few hundred ms into a busy run (the first write's
 * statements each waited for the main thread between bursts of cycles), and a
 * crash in that window left a store with no session at all.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, runCli, startCli, until } from './helpers/cli.js';
import { storedEventCount } from './helpers/storedEvents.js';

const NEVER_DONE = { OODA_STALL_THRESHOLD: '1000000' };

test('kill -9 as soon as ooda run says started: the store holds the session, and resume continues it', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-session-start-')), 'store.db');
  const child = startCli(['run', '--db', db, '--session', 'busy', '--no-stdin', '--heartbeat', '0', '--max-cycles', '1000000', '--goal', 'Find qzx wvy'], NEVER_DONE);
  const result = finished(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await until(() => stderr, /session busy started/);
  child.kill('SIGKILL');
  await result;

  const listed = await runCli(['sessions', '--db', db, '--json']);
  t.is(listed.code, 0, listed.stderr);
  t.like(events(listed.stdout), [{ id: 'busy', status: 'running' }], 'left running, as a crash leaves it');
  const resumed = await runCli(['resume', '--db', db, '--no-stdin', '--heartbeat', '0', '--max-cycles', '2'], '', NEVER_DONE);
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stderr, /holds session busy: resuming it at cycle \d+/);
});

test('a session saved while paused resumes paused, and ooda run says so as it starts', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-session-start-')), 'store.db');
  const pause = JSON.stringify({ type: 'command', command: 'pause' });
  const first = await runCli(['run', '--db', db, '--session', 'held', '--heartbeat', '0', '--goal', 'Find moons of Mars'], `${pause}\n`);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stderr, /session held started \(max 1000 cycles\) on \S+\n/, 'a run that is not paused says nothing of it');
  const again = await runCli(['run', '--db', db, '--session', 'again', '--heartbeat', '0'], `${JSON.stringify({ type: 'goal', description: 'Find rings of Saturn' })}\n`);
  t.is(again.code, 0, again.stderr);
  t.regex(again.stderr, /session again started \(at cycle \d+, max \d+ more\) on \S+; it is paused, as it was saved: no cycle runs until a resume command \(\{"type":"command","command":"resume"\}\)\n/);
  t.regex(again.stderr, /ended: input ended \(agent paused\)/);
});

test('a session that ended before its first cycle is resumed at cycle 0, and ooda run says it resumed, as at any other cycle', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-session-start-')), 'store.db');
  const first = await runCli(['run', '--db', db, '--session', 'idle', '--heartbeat', '0', '--no-stdin']);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stderr, /session idle ended: input ended and no goal is active after 0 cycle\(s\)\n/);
  const again = await runCli(['run', '--db', db, '--session', 'again', '--heartbeat', '0', '--max-cycles', '2', '--goal', 'Find moons of Mars']);
  t.is(again.code, 0, again.stderr);
  t.regex(again.stderr, /holds session idle: resuming it at cycle 0 as session again/);
  t.regex(again.stderr, /session again started \(at cycle 0, max 2 more\) on \S+\n/);
  t.regex(again.stderr, /session again ended: max cycles reached after 2 cycle\(s\), at cycle 2\n/);
});

/**
 * Runs session "held" on a new store with `lines` on stdin, kills it (-9) once
 * the first event `last` finds is printed and stored, then starts session
 * "again" on that store: what it printed.
 */
async function killedThenRunAgain(lines: object[], printed: RegExp, last: (event: Record<string, unknown>) => boolean) {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-session-start-')), 'store.db');
  const child = startCli(['run', '--db', db, '--session', 'held', '--heartbeat', '0', '--goal', 'Find qzx wvy'], NEVER_DONE);
  const result = finished(child);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  for (const line of lines) child.stdin.write(`${JSON.stringify(line)}\n`);
  await until(() => stdout, printed);
  const seq = events(stdout).find(last)!.seq as number;
  await until(() => String(Number(storedEventCount(db)) >= seq), /true/);
  child.kill('SIGKILL');
  await result;
  return runCli(['run', '--db', db, '--session', 'again', '--heartbeat', '0', '--no-stdin'], '', NEVER_DONE);
}

test('a session paused after its last snapshot and killed resumes paused, and ooda run says the re-applied signals paused it, not its save', async (t) => {
  // The pause (its signal, then its events) is committed: only the start snapshot, taken before it, is stored.
  const again = await killedThenRunAgain([{ type: 'command', command: 'pause' }], /"command":"pause","result":"paused"/, (event) => event.kind === 'command');
  t.is(again.code, 0, again.stderr);
  t.regex(again.stderr, /session held: re-applied \d+ signal\(s\) recorded after its last snapshot/);
  t.regex(again.stderr, /session again started \(at cycle \d+, max \d+ more\) on \S+; it is paused, as the \d+ signal\(s\) re-applied after its last snapshot left it: no cycle runs until a resume command/);
  t.regex(again.stderr, /ended: input ended \(agent paused\)/);
});

test('a session saved while paused, then sent more and killed, resumes paused, and ooda run says it was saved so, not that the re-applied signals paused it', async (t) => {
  // The fact came after the save: its signal is re-applied on resume, its snapshot's pause stays.
  const lines = [{ type: 'command', command: 'pause' }, { type: 'command', command: 'save' }, { type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' }];
  const again = await killedThenRunAgain(lines, /"kind":"fact"/, (event) => event.kind === 'fact');
  t.is(again.code, 0, again.stderr);
  t.regex(again.stderr, /session held: re-applied \d+ signal\(s\) recorded after its last snapshot/);
  t.regex(again.stderr, /session again started \(at cycle \d+, max \d+ more\) on \S+; it is paused, as it was saved: no cycle runs until a resume command/);
});
