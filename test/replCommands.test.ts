import test from 'ava';
import { fileURLToPath } from 'node:url';
import { runCli } from './helpers/cli.js';

const knowledge = fileURLToPath(new URL('../demo/knowledge.ndjson', import.meta.url));

test('ooda repl: each command says its result once (c: the consolidation, r: the reflection, status: the status) and q ends the session', async (t) => {
  const { code, stdout, stderr } = await runCli(['repl', '--kg', knowledge], 'g Find moons of Mars\ns 3\nc\nr\nstatus\nq\n');
  t.is(code, 0, stderr);
  const lines = stdout.split('\n');
  t.is(lines.filter((line) => /consolidated \d+ entries into \d+ episode\(s\)/.test(line)).length, 1, stdout);
  t.is(lines.filter((line) => /^(ooda> )*reflection /.test(line)).length, 1, stdout);
  t.regex(stdout, /session stopped \(quit\)/);
});
