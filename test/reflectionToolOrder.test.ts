/**
 * A reflection lists the tools' effectiveness in one order whatever the
 * process's locale, so a session recorded on one machine replays on another.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';

/** Reflects over runs of two tools whose order the Danish collation reverses ("aa" sorts after "z"), and prints the order. */
const SCRIPT = `
import { Mind } from './mind/mind.js';
import { Reflection } from './mind/reflection.js';
const mind = new Mind();
const reflection = Reflection.attach(mind);
for (const tool of ['b_tool', 'aa_tool']) reflection.note({ goalId: 'goal-1', tool, result: 'ok' });
console.log(JSON.stringify(reflection.reflect('command', 0).tools.map((t) => t.tool)));
`;

test('the reflection\'s tools come in the same order under a Danish locale as under English', (t) => {
  const orders = ['en_US.UTF-8', 'da_DK.UTF-8'].map((locale) => {
    const run = spawnSync(process.execPath, ['--import=tsx', '--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, LANG: locale, LC_ALL: locale },
    });
    t.is(run.status, 0, run.stderr);
    return run.stdout.trim();
  });
  t.is(orders[0], '["aa_tool","b_tool"]');
  t.is(orders[1], orders[0]);
});
