import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, runCli } from './helpers/cli.js';

test('ooda cycle runs exactly one cycle, whatever OODA_MAX_CYCLES says; on a store each call continues the saved mind by one cycle', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-cycle-')), 'ooda.db');
  const env = { OODA_MAX_CYCLES: '50' };
  const first = await runCli(['cycle', '--db', db, '--heartbeat', '0', '--goal', 'Find moons of Mars'], '', env);
  t.is(first.code, 0, first.stderr);
  const once = events(first.stdout);
  t.deepEqual(once.filter((e) => e.kind === 'decision').map((e) => e.cycle), [1]);
  t.like(once.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 1 });
  const second = await runCli(['cycle', '--db', db, '--heartbeat', '0'], '', env);
  t.is(second.code, 0, second.stderr);
  t.regex(second.stderr, /resum/);
  const again = events(second.stdout);
  t.deepEqual(again.filter((e) => e.kind === 'decision').map((e) => [e.cycle, e.goalId]), [[2, 'goal-1']]);
});

test('a mistyped flag of any command is answered with the flag it most likely meant', async (t) => {
  const near = await runCli(['run', '--max-cycle', '5']);
  t.is(near.code, 2);
  t.is(near.stderr, "ooda: Unknown option '--max-cycle' (did you mean --max-cycles?): 'ooda run --help' lists the options it accepts\n");
  const typo = await runCli(['events', '--lmit', '3']);
  t.is(typo.stderr, "ooda: Unknown option '--lmit' (did you mean --limit?): 'ooda events --help' lists the options it accepts\n");
  const farOff = await runCli(['run', '--teleport']);
  t.is(farOff.stderr, "ooda: Unknown option '--teleport': 'ooda run --help' lists the options it accepts\n");
});
