/**
 * A bad config key or value is blamed on the layer it is in (file,
 * environment, flags), and is an error even when a later layer overrides it.
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';

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
  t.is(fromEnv.stderr, 'ooda: config environment: maxCyclez: Unrecognized key: "maxCyclez"\n');
});

test('a bad value in the file is an error even when a flag or the command overrides it', async (t) => {
  const file = configFile({ maxCycles: 'ten' });
  const expected = `ooda: config ${file}: maxCycles: Invalid input: expected number, received string\n`;
  const overridden = await runCli(['run', '--no-db', '--no-stdin', '--config', file, '--max-cycles', '3']);
  t.is(overridden.code, 2);
  t.is(overridden.stderr, expected);
  const consolidate = await runCli(['consolidate', '--db', join(mkdtempSync(join(tmpdir(), 'ooda-layers-')), 'r.db'), '--config', file]);
  t.is(consolidate.code, 2);
  t.is(consolidate.stderr, expected);
});
