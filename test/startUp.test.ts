/**
 * What happens before a run runs — the `--ws` server listening, the store
 * opening — ends cleanly when the run does not start: what was opened is
 * closed and the process exits with a message.
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, startCli } from './helpers/cli.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'ooda-startup-'));

test('a store that cannot be opened after the --ws server listens: the server is closed and the process exits 1', async (t) => {
  const db = join(tempDir(), 'text.db');
  writeFileSync(db, 'not a database, only text that fills more than a header would take '.repeat(4));
  const child = startCli(['run', '--ws', '0', '--db', db, '--no-stdin', '--max-cycles', '1']);
  const { code, stderr } = await finished(child, 15_000);
  t.is(code, 1, stderr);
  t.regex(stderr, /^dashboard: http:\/\/127\.0\.0\.1:\d+\//m);
  t.regex(stderr, /is not an SQLite database/);
});
