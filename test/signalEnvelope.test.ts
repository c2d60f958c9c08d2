/**
 * The envelope of a signal from outside (depth, meta, at) is the runtime's:
 * a sender that sets it is rejected with the field named, and every accepted
 * signal gets its `perceived` event with the transport's own source.
 */
import test from 'ava';
import { events, finished, runCli, startCli } from './helpers/cli.js';
import { connectAsker } from './helpers/wsAsker.js';

const goal = (description: string, extra: object = {}): string => JSON.stringify({ type: 'goal', description, ...extra });

test('stdin: depth, meta and at are rejected naming the field; the accepted goal is perceived from stdin', async (t) => {
  const input = [goal('deep', { depth: 1 }), goal('spoofed', { meta: { source: 'cli' } }), goal('timed', { at: 5 }), goal('plain')].join('\n');
  const { code, stdout, stderr } = await runCli(['run', '--no-db', '--max-cycles', '1', '--heartbeat', '0'], `${input}\n`);
  t.is(code, 0, stderr);
  const all = events(stdout);
  const rejected = all.filter((e) => e.kind === 'rejected');
  t.deepEqual(
    rejected.map((e) => [e.line, String(e.reason).split(': set by')[0]]),
    [
      [1, 'invalid goal signal: depth'],
      [2, 'invalid goal signal: meta'],
      [3, 'invalid goal signal: at'],
    ],
  );
  t.regex(String(rejected[0]!.reason), /not by the sender: every signal from outside enters at depth 0/);
  t.deepEqual(
    all.filter((e) => e.kind === 'perceived').map((e) => [e.source, e.line, e.depth]),
    [['stdin', 4, 0]],
  );
  t.deepEqual(all.filter((e) => e.kind === 'goal' && e.change === 'added').map((e) => e.description), ['plain']);
});

test('WebSocket: a signal with meta.source is refused; an accepted one is perceived with the client as its source', async (t) => {
  const token = 'envelope-token';
  const child = startCli(['run', '--no-db', '--no-stdin', '--heartbeat', '0', '--ws', '0', '--token', token]);
  const result = finished(child);
  const url = await new Promise<string>((resolve) => {
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const found = /dashboard: (http:\/\/\S+)\//.exec(stderr);
      if (found) resolve(`${found[1]!.replace('http', 'ws')}/ws`);
    });
  });
  const { socket, ask } = await connectAsker(url);
  const spoofed = await ask({ id: 's', token, signal: { type: 'goal', description: 'spoofed', meta: { source: 'cli' } } });
  t.like(spoofed, { type: 'error', id: 's' });
  t.regex(spoofed.error, /^invalid goal signal: meta: set by the runtime, not by the sender/);
  t.like(await ask({ id: 'd', token, signal: { type: 'goal', description: 'deep', depth: 3 } }), { type: 'error', id: 'd' });
  t.like(await ask({ id: 'g', token, signal: { type: 'goal', description: 'Find moons of Mars' } }), { type: 'ack', id: 'g' });
  t.like(await ask({ token, signal: { type: 'command', command: 'stop' } }), { type: 'ack' });
  const { code, stdout, stderr } = await result;
  socket.close();
  t.is(code, 0, stderr);
  const perceived = events(stdout).filter((e) => e.kind === 'perceived');
  t.deepEqual(
    perceived.map((e) => e.signalType),
    ['goal', 'command'],
  );
  for (const e of perceived) t.regex(String(e.source), /^ws-\d+$/);
});
