import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnvironment, ConfigError, readConfigFile, resolveConfig } from '../streams/config.js';

test('layers merge defaults < file < environment < flags, nested keys key by key', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-config-'));
  const file = join(dir, 'ooda.json');
  writeFileSync(file, JSON.stringify({ maxCycles: 10, heartbeatMs: 500, tools: { shellExec: true, httpAllowHosts: ['example.org'] } }));
  const config = resolveConfig([
    await readConfigFile(file),
    configFromEnvironment({ OODA_MAX_CYCLES: '20', OODA_TOOLS__SHELL_TIMEOUT_MS: '900', PATH: '/bin' }),
    { origin: 'flags', values: { maxCycles: 30 } },
  ]);
  t.is(config.maxCycles, 30);
  t.is(config.heartbeatMs, 500);
  t.true(config.tools.shellExec);
  t.is(config.tools.shellTimeoutMs, 900);
  t.deepEqual(config.tools.httpAllowHosts, ['example.org']);
  t.is(config.workingMemoryCapacity, 100);
});

test('a bad value names the key, the reason and the layer it came from (in the environment, the variable too)', (t) => {
  const error = t.throws(() => resolveConfig([configFromEnvironment({ OODA_WORKING_MEMORY_CAPACITY: '-5' })]), { instanceOf: ConfigError });
  t.is(error?.key, 'workingMemoryCapacity');
  t.is(error?.variable, 'OODA_WORKING_MEMORY_CAPACITY');
  t.is(error?.origin, 'environment');
  t.regex(error!.message, /^config environment: OODA_WORKING_MEMORY_CAPACITY \(workingMemoryCapacity\): .* \(got -5\)$/);
  const deep = t.throws(() => resolveConfig([{ origin: 'my.json', values: { tools: { httpAllowHosts: ['example.org', 7] } } }]), { instanceOf: ConfigError });
  t.is(deep?.message, 'config my.json: tools.httpAllowHosts.1: Invalid input: expected string, received number (got 7)');
  const nested = t.throws(() => resolveConfig([configFromEnvironment({ OODA_TOOLS__SHELL_EXEC: 'maybe' })]), { instanceOf: ConfigError });
  t.is(nested?.message, 'config environment: OODA_TOOLS__SHELL_EXEC (tools.shellExec): Invalid input: expected boolean, received string (got "maybe")');
  const unknownVariables = t.throws(() => resolveConfig([configFromEnvironment({ OODA_MAX_CYCLEZ: '3', OODA_FOO: 'x' })]), { instanceOf: ConfigError });
  t.is(unknownVariables?.message, 'config environment: OODA_MAX_CYCLEZ, OODA_FOO (maxCyclez, foo): Unrecognized keys: "maxCyclez", "foo"');
  const unknown = t.throws(() => resolveConfig([{ origin: 'my.json', values: { maxCycle: 3 } }]), { instanceOf: ConfigError });
  t.regex(unknown!.message, /maxCycle/);
});

test('an unreadable or malformed config file is a clear error naming the file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-config-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{ nope');
  await t.throwsAsync(readConfigFile(bad), { message: new RegExp(`config ${bad.replace(/[.]/g, '\\.')}: \\(file\\): not valid JSON`) });
  for (const [text, got] of [['[1]', 'an array'], ['null', 'null'], ['42', '42']]) {
    writeFileSync(bad, text);
    await t.throwsAsync(readConfigFile(bad), { message: `config ${bad}: (file): expected a JSON object of config keys, got ${got}` }, text);
  }
  await t.throwsAsync(readConfigFile(join(dir, 'missing.json')), { message: /cannot read .*missing\.json/ });
  writeFileSync(bad, '{\n  "maxCycles": 5,\n  "seed": 3,\n}\n');
  await t.throwsAsync(readConfigFile(bad), { message: /not valid JSON: .* at position 33 \(line 4, column 1\)$/ }, 'a trailing comma: the line and column of the brace after it');
});

test('resolveConfig given no list of layers, or a layer that is none, is a TypeError naming it', (t) => {
  t.throws(() => resolveConfig(5 as never), { instanceOf: TypeError, message: 'resolveConfig takes an array of layers ({ origin, values }), got 5' });
  t.throws(() => resolveConfig([{ origin: 'a', values: {} }, null as never]), { instanceOf: TypeError, message: 'resolveConfig layers[1]: expected { origin, values: { …config } }, got null' });
  t.is(resolveConfig([{ origin: 'a', values: { maxCycles: 7 } }]).maxCycles, 7);
});

test('a key spelt as the seeds spell settings (snake_case) is named with the setting it spells, at the top and in a section', (t) => {
  const refusal = (values: Record<string, unknown>) => t.throws(() => resolveConfig([{ origin: 'file', values }]), { instanceOf: ConfigError })?.message;
  t.is(refusal({ max_backtrack_attempts: 5 }), 'config file: max_backtrack_attempts: Unrecognized key: "max_backtrack_attempts" (settings are spelt in camelCase: maxBacktrackAttempts)');
  t.is(refusal({ tools: { shell_exec: true } }), 'config file: tools.shell_exec: Unrecognized key: "shell_exec" (settings are spelt in camelCase: shellExec)');
  t.is(refusal({ reflection: { min_cycles_worked: 2 } }), 'config file: reflection.min_cycles_worked: Unrecognized key: "min_cycles_worked" (settings are spelt in camelCase: minCyclesWorked)');
  t.is(refusal({ frobnicate: 1 }), 'config file: frobnicate: Unrecognized key: "frobnicate"', 'no hint when the key spells no setting');
});
