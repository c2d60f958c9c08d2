/**
 * A --kg file that cannot be read is a usage error (exit 2) naming the file
 * and the reason, before the agent starts: nothing on stdout.
 */
import test from 'ava';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';

const missing = join(tmpdir(), 'ooda-no-such-file.ndjson');

for (const command of [['run', '--no-db', '--no-stdin'], ['plan'], ['reflect']]) {
  test(`${command[0]}: a missing --kg file or a directory is a usage error naming it`, async (t) => {
    for (const [file, reason] of [[missing, 'no such file'], [tmpdir(), 'is a directory']] as const) {
      const { code, stdout, stderr } = await runCli([...command, '--goal', 'Find moons of Mars', '--kg', file]);
      t.is(code, 2, stderr);
      t.is(stderr, `ooda: --kg: cannot read ${JSON.stringify(file)}: ${reason}\n`);
      t.is(stdout, '');
    }
  });
}
