/**
 * What a WebSocket client (or stdin) gets told about input the agent cannot
 * use: an unknown kind in a subscription is named with the accepted kinds,
 * an input answering a question that is not pending is flagged, and a signal
 * sent while the run is held (a saturated store) is refused.
 */
import test from 'ava';
import { Subject } from 'rxjs';
import { WsServer } from '../sinks/wsServer.js';
import { fromWebSocket, HELD_ERROR } from '../sources/wsInput.js';
import { EVENT_KINDS } from '../streams/events.js';
import { connectAsker } from './helpers/wsAsker.js';
import { events, runCli } from './helpers/cli.js';

test('{"subscribe": [..., "bogus"]} is refused naming "bogus" and the accepted kinds; the connection stays open', async (t) => {
  const server = await WsServer.listen({ port: 0, token: 'subscribe-token' });
  t.teardown(() => server.close('test over'));
  const { socket, ask } = await connectAsker(server.wsUrl);
  t.deepEqual(await ask({ subscribe: ['decision', 'bogus'] }), {
    type: 'error',
    error: `invalid subscribe: unknown event kind(s) "bogus" (accepted: ${EVENT_KINDS.join(', ')}, or "*" for all)`,
  });
  t.like(await ask({ subscribe: ['decision'] }), { type: 'ack', accepted: 'subscribe', kinds: ['decision'] });
  socket.close();
});

test('an input whose replyTo names no pending question gets a warning event and is kept as plain input', async (t) => {
  const { code, stdout, stderr } = await runCli(['run', '--no-db', '--max-cycles', '1', '--heartbeat', '0'], `${JSON.stringify({ type: 'input', text: 'yes', replyTo: 'question-99' })}\n`);
  t.is(code, 0, stderr);
  const all = events(stdout);
  t.like(all.find((e) => e.kind === 'input'), { text: 'yes', replyTo: 'question-99' });
  t.like(all.find((e) => e.kind === 'warning'), { key: 'replyTo', message: 'input replyTo "question-99" names no pending question (pending: none); taken as plain input' });
});

test('while the run is held (a saturated store), a valid signal is refused in its ack instead of queued, but for the stop and pause commands; afterwards it is accepted again', async (t) => {
  const server = await WsServer.listen({ port: 0, token: 'held-token' });
  t.teardown(() => server.close('test over'));
  const hold = new Subject<boolean>();
  const received: unknown[] = [];
  const input = fromWebSocket(server, { hold }).subscribe((stimulus) => received.push(stimulus.value));
  t.teardown(() => input.unsubscribe());
  const { socket, ask } = await connectAsker(server.wsUrl);
  const fact = (object: string) => ({ token: 'held-token', signal: { type: 'fact', subject: 'mars', predicate: 'has_moon', object } });
  t.like(await ask(fact('phobos')), { type: 'ack', accepted: 'fact' });
  hold.next(true);
  t.like(await ask(fact('deimos')), { type: 'error', error: HELD_ERROR });
  t.regex((await ask({ token: 'held-token', signal: { type: 'fact', subject: 'mars' } })).error, /^invalid fact signal: predicate/, 'an invalid one is told what is wrong with it');
  const command = (name: string) => ({ token: 'held-token', signal: { type: 'command', command: name } });
  t.like(await ask(command('status')), { type: 'error', error: HELD_ERROR });
  t.like(await ask(command('pause')), { type: 'ack', accepted: 'command' });
  t.like(await ask(command('stop')), { type: 'ack', accepted: 'command' });
  hold.next(false);
  t.like(await ask(fact('moon')), { type: 'ack', accepted: 'fact' });
  t.deepEqual(
    received.map((signal) => (signal as { object?: string; command?: string }).object ?? (signal as { command: string }).command),
    ['phobos', 'pause', 'stop', 'moon'],
  );
  socket.close();
});
