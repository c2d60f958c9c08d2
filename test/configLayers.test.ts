/**
 * A bad config key or value is blamed on the layer it is in (file,
 * environment, flags), and is an error even when a later layer overrides it.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { events, runCli } from './helpers/cli.js';

function configFile(values: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ooda-layers-')), 'c.json');
  writeFileSync(file, JSON.stringify(values));
  return file;
}

test('an unknown key is blamed on the file or the environment it came from, not on the flags', async (t) => {
  const file = configFile({ maxCyclez: 5 });
  const fromFile = await runCli(['run', '--no-db', '--no-stdin', '--config', file]);
  t.is(fromFile.code, 2);
  t.is(fromFile.stderr, `ooda: config ${file}: maxCyclez: Unrecognized key: "maxCyclez"\n`);
  const fromEnv = await runCli(['run', '--no-db', '--no-stdin'], '', { OODA_MAX_CYCLEZ: '5' });
  t.is(fromEnv.code, 2);
  t.is(fromEnv.stderr, 'ooda: config environment: OODA_MAX_CYCLEZ (maxCyclez): Unrecognized key: "maxCyclez"\n');
});

test('a bad value in the file is an error even when a flag or the command overrides it', async (t) => {
  const file = configFile({ maxCycles: 'ten' });
  const expected = `ooda: config ${file}: maxCycles: Invalid input: expected number, received string (got "ten")\n`;
  const overridden = await runCli(['run', '--no-db', '--no-stdin', '--config', file, '--max-cycles', '3']);
  t.is(overridden.code, 2);
  t.is(overridden.stderr, expected);
  const consolidate = await runCli(['consolidate', '--db', join(mkdtempSync(join(tmpdir(), 'ooda-layers-')), 'r.db'), '--config', file]);
  t.is(consolidate.code, 2);
  t.is(consolidate.stderr, expected);
});

test('a resumed session keeps its own config under this run\'s file, environment and flags; --max-cycles still counts more cycles', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-layers-')), 'resume.db');
  /** The config a session ran with, as the store recorded it. */
  const sessionConfig = (id: string): Record<string, unknown> => {
    const store = new Database(db, { readonly: true });
    try {
      return JSON.parse((store.prepare('SELECT config FROM sessions WHERE id = ?').get(id) as { config: string }).config) as Record<string, unknown>;
    } finally {
      store.close();
    }
  };
  const first = await runCli(['run', '--db', db, '--no-stdin', '--heartbeat', '0', '--session', 's-first', '--max-cycles', '3', '--goal', 'Find the zorblax', '--config', configFile({ stallThreshold: 50, reflection: { interval: 2 } })]);
  t.is(first.code, 0, first.stderr);

  const inherited = await runCli(['resume', '--db', db, '--no-stdin', '--heartbeat', '0', '--session', 's-inherits', '--max-cycles', '2']);
  t.is(inherited.code, 0, inherited.stderr);
  t.like(sessionConfig('s-inherits'), { stallThreshold: 50, reflection: { interval: 2 }, maxCycles: 5 });

  const overridden = await runCli(['resume', '--db', db, '--no-stdin', '--heartbeat', '0', '--session', 's-overrides', '--max-cycles', '1', '--config', configFile({ stallThreshold: 9 })], '', {
    OODA_REFLECTION__INTERVAL: '4',
  });
  t.is(overridden.code, 0, overridden.stderr);
  t.like(sessionConfig('s-overrides'), { stallThreshold: 9, reflection: { interval: 4 }, maxCycles: 6 });

  const fresh = await runCli(['run', '--db', db, '--no-stdin', '--heartbeat', '0', '--session', 's-fresh', '--max-cycles', '1', '--fresh']);
  t.is(fresh.code, 0, fresh.stderr);
  t.like(sessionConfig('s-fresh'), { stallThreshold: 6, reflection: { interval: 5 }, maxCycles: 1 });
});

test('the auto-save warning is said of the config the run ends up with: a resumed session\'s heartbeat included', async (t) => {
  const warning = /autoSaveMs 300000 has no effect/;
  const quiet = join(mkdtempSync(join(tmpdir(), 'ooda-layers-')), 'quiet.db');
  t.is((await runCli(['run', '--db', quiet, '--no-stdin', '--heartbeat', '0', '--max-cycles', '0'])).code, 0);
  const resumed = await runCli(['resume', '--db', quiet, '--no-stdin', '--max-cycles', '0']);
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stderr, warning, 'the resumed session has no heartbeat, so no auto-save');

  const beating = join(mkdtempSync(join(tmpdir(), 'ooda-layers-')), 'beating.db');
  t.is((await runCli(['run', '--db', beating, '--no-stdin', '--heartbeat', '50', '--max-cycles', '0'])).code, 0);
  const demo = await runCli(['demo', '--db', beating, '--max-cycles', '0']);
  t.is(demo.code, 0, demo.stderr);
  t.notRegex(demo.stderr, warning, 'demo resumes the session with its heartbeat, so auto-save runs');
});

test('ooda consolidate runs without a heartbeat but leaves the session\'s own for the next resume', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-layers-')), 'consolidated.db');
  t.is((await runCli(['run', '--db', db, '--no-stdin', '--heartbeat', '1', '--max-cycles', '0'])).code, 0);
  const consolidated = await runCli(['consolidate', '--db', db]);
  t.is(consolidated.code, 0, consolidated.stderr);
  t.deepEqual(events(consolidated.stdout).filter((e) => e.kind === 'heartbeat' || e.kind === 'sensor'), []);
  const store = new Database(db, { readonly: true });
  const heartbeats = (store.prepare("SELECT config->>'heartbeatMs' AS ms FROM sessions ORDER BY rowid").all() as { ms: number }[]).map((row) => row.ms);
  store.close();
  t.deepEqual(heartbeats, [1, 1]);
});
