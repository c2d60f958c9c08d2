import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnvironment, ConfigError, resolveConfig } from '../streams/config.js';
import { configFromSeedEnvironment } from '../streams/seedEnvironment.js';
import { events, runCli } from './helpers/cli.js';

test("seed 004's HEARTBEAT_INTERVAL and MEMORY_AUTO_SAVE_INTERVAL set the heartbeat and auto-save periods in seconds; OODA_* variables win over them", (t) => {
  const seed = configFromSeedEnvironment({ HEARTBEAT_INTERVAL: '2', MEMORY_AUTO_SAVE_INTERVAL: ' 90 ', PATH: '/bin' });
  t.like(resolveConfig([seed]), { heartbeatMs: 2_000, autoSaveMs: 90_000 });
  const both = resolveConfig([seed, configFromEnvironment({ OODA_HEARTBEAT_MS: '250' })]);
  t.like(both, { heartbeatMs: 250, autoSaveMs: 90_000 });
  t.like(resolveConfig([configFromSeedEnvironment({})]), { heartbeatMs: 60_000, autoSaveMs: 300_000 });
  t.like(resolveConfig([configFromSeedEnvironment({ HEARTBEAT_INTERVAL: '0' })]), { heartbeatMs: 0 });
});

test('a seed variable that is not whole seconds a timer can honour is a ConfigError naming the variable and what it got', (t) => {
  for (const [variable, raw, key] of [
    ['HEARTBEAT_INTERVAL', '1.5', 'heartbeatMs'],
    ['HEARTBEAT_INTERVAL', '-3', 'heartbeatMs'],
    ['MEMORY_AUTO_SAVE_INTERVAL', '5m', 'autoSaveMs'],
    ['MEMORY_AUTO_SAVE_INTERVAL', '', 'autoSaveMs'],
    ['HEARTBEAT_INTERVAL', '2147484', 'heartbeatMs'],
  ] as const) {
    const error = t.throws(() => configFromSeedEnvironment({ [variable]: raw }), { instanceOf: ConfigError });
    t.is(error?.message, `config environment: ${variable} (${key}): expected whole seconds from 0 to 2147483, got ${JSON.stringify(raw)}`);
  }
});

test('ooda run reads the seed variables: the session records the periods they set; a bad one exits 2 naming it', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-seed-env-')), 'ooda.db');
  const result = await runCli(['run', '--db', db, '--max-cycles', '1', '--goal', 'Find moons of Mars'], '', { HEARTBEAT_INTERVAL: '7', MEMORY_AUTO_SAVE_INTERVAL: '3600' });
  t.is(result.code, 0, result.stderr);
  const sessions = await runCli(['sessions', '--db', db, '--json']);
  t.like(events(sessions.stdout)[0], { status: 'ended', config: { heartbeatMs: 7_000, autoSaveMs: 3_600_000 } });
  const bad = await runCli(['run', '--no-db', '--max-cycles', '1'], '', { MEMORY_AUTO_SAVE_INTERVAL: 'soon' });
  t.is(bad.code, 2);
  t.is(bad.stderr, 'ooda: config environment: MEMORY_AUTO_SAVE_INTERVAL (autoSaveMs): expected whole seconds from 0 to 2147483, got "soon"\n');
});

test('a seed variable the OODA_* one overrides is not read: HEARTBEAT_INTERVAL=30s (another program\'s) does not stop a run that sets OODA_HEARTBEAT_MS', (t) => {
  const env = { HEARTBEAT_INTERVAL: '30s', OODA_HEARTBEAT_MS: '1000', MEMORY_AUTO_SAVE_INTERVAL: '90' };
  const seed = configFromSeedEnvironment(env);
  t.deepEqual(seed.values, { autoSaveMs: 90_000 });
  t.like(resolveConfig([seed, configFromEnvironment(env)]), { heartbeatMs: 1000, autoSaveMs: 90_000 });
  // Not set by its OODA_* variable, a bad seed value is still refused.
  t.throws(() => configFromSeedEnvironment({ HEARTBEAT_INTERVAL: '30s', OODA_AUTO_SAVE_MS: '1000' }), { instanceOf: ConfigError });
});
