/**
 * `--token-file FILE`: the control token read from a file, so that it is not
 * in the process list (`ps`, /proc/PID/cmdline) where `--token` puts it for
 * every local user to read.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, startCli } from './helpers/cli.js';
import { connectAsker } from './helpers/wsAsker.js';

function tokenFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ooda-token-')), 'token');
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

test('--token-file: clients send with the token on the file\u2019s first line; the token is in neither the process list nor stderr', async (t) => {
  const token = 'from-a-file-1234';
  const child = startCli(['run', '--no-db', '--no-stdin', '--heartbeat', '0', '--ws', '0', '--token-file', tokenFile(`${token}\nsecond line ignored\n`)]);
  const result = finished(child);
  let stderr = '';
  const url = await new Promise<string>((resolve) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const found = /dashboard: (http:\/\/\S+)\//.exec(stderr);
      if (found) resolve(`${found[1]!.replace('http', 'ws')}/ws`);
    });
  });
  t.false(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').includes(token), 'not on the command line');
  const { socket, ask } = await connectAsker(url);
  t.like(await ask({ id: 'w', token: 'second line ignored', signal: { type: 'command', command: 'pause' } }), { type: 'error', id: 'w', error: 'unauthorised: wrong token' });
  t.like(await ask({ id: 's', token, signal: { type: 'command', command: 'stop' } }), { type: 'ack', id: 's' });
  const { code } = await result;
  socket.close();
  t.is(code, 0, stderr);
  t.false(stderr.includes(token), 'a token given is not printed');
});

test('--token-file: a missing file, a bad token in it, or --token as well is a usage error naming it', async (t) => {
  const missing = join(mkdtempSync(join(tmpdir(), 'ooda-token-')), 'none');
  const short = tokenFile('short\n');
  const cases: [string[], string][] = [
    [['--token-file', short], '--token-file needs --ws PORT'],
    [['--ws', '0', '--token-file', missing], `--token-file: cannot read ${missing} (ENOENT)`],
    [['--ws', '0', '--token-file', short], `--token-file: the token on the first line of ${short}: use at least 8 characters`],
    [['--ws', '0', '--token-file', short, '--token', 'long-enough-token'], '--token and --token-file: give one of them'],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await finished(startCli(['run', '--no-db', '--no-stdin', ...args]), 15_000);
    t.is(code, 2, stderr);
    t.is(stderr, `ooda: ${message}\n`);
  }
});
