import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { of, Subject, VirtualTimeScheduler } from 'rxjs';
import type { AgentEvent } from '../streams/events.js';
import type { Signal, Stimulus } from '../streams/signals.js';
import { createTestAgent } from '../streams/testing.js';
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

test('a rejected line\'s pass happens as it begins, like any signal\'s (the line waited behind another pass): its rejection and the max-cycles warning it brings carry that time, at which a replay re-perceives the line', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const lines = new Subject<Stimulus>();
  let entered = 0;
  const agent = createTestAgent(scheduler, {
    config: { maxCycles: 0 },
    // While the first pass (a tick) runs, a bad line arrives, and the clock moves on before its own pass begins.
    onEnter: () => {
      if (entered++ > 0) return;
      lines.next({ source: 'stdin', line: 1, text: 'not json' });
      scheduler.frame += 5;
    },
  });
  const tick: Signal = { type: 'tick', depth: 0, meta: { source: 'driver' }, at: 0 };
  const events$ = agent.run({ inputs: [lines], signals: [of(tick)] });
  const seen: AgentEvent[] = [];
  events$.subscribe((event) => seen.push(event));
  events$.connect();
  scheduler.flush();
  lines.complete();
  scheduler.flush();
  const rejected = seen.find((e) => e.kind === 'rejected');
  const warning = seen.find((e) => e.kind === 'warning' && e.key === 'maxCycles');
  t.truthy(rejected);
  t.truthy(warning, 'the line past max cycles brings the warning');
  t.is(warning!.at, rejected!.at);
  t.is(rejected!.at, 5, 'the time its pass began, not the time the line came in');
});
