import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, finished, runCli, startCli, until } from './helpers/cli.js';

function storeFile(t: { teardown: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-replay-max-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'max.db');
}

test('a session that got the max-cycles warning replays identically: a --goal taken in at --max-cycles 0', async (t) => {
  const db = storeFile(t);
  const run = await runCli(['run', '--db', db, '--max-cycles', '0', '--heartbeat', '0', '--no-stdin', '--goal', 'Find the zorblax']);
  t.is(run.code, 0, run.stderr);
  t.like(events(run.stdout).find((e) => e.kind === 'warning'), { key: 'maxCycles' });
  const replay = await runCli(['replay', '--db', db]);
  t.is(replay.code, 0, replay.stdout + replay.stderr);
  t.regex(replay.stdout, /^identical: session .*, 5 event\(s\)/);
});

test('a session fed by a live pipe past max cycles replays identically: the warning comes with the bad line that arrived afterwards, in the replay too', async (t) => {
  const db = storeFile(t);
  const child = startCli(['run', '--db', db, '--max-cycles', '3', '--heartbeat', '0']);
  const result = finished(child);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stdin.write('{"type":"goal","description":"Find the zorblax","criteria":"zzqx","stallThreshold":1000}\n');
  await until(() => stdout, /"kind":"action","seq":\d+,"session":"[^"]+","cycle":3,/);
  child.stdin.write('not json\n{"type":"fact","subject":"zorblax","predicate":"is a","object":"word"}\n');
  child.stdin.end();
  const run = await result;
  t.is(run.code, 0, run.stderr);
  const recorded = events(run.stdout);
  const warning = recorded.findIndex((e) => e.kind === 'warning' && e.key === 'maxCycles');
  t.true(warning > 0, 'the warning was given');
  t.is(recorded[warning - 1]!.kind, 'rejected', 'with the bad line');
  const replay = await runCli(['replay', '--db', db]);
  t.is(replay.code, 0, replay.stdout + replay.stderr);
  t.regex(replay.stdout, /^identical/);
});
