/**
 * What a WebSocket client (or stdin) gets told about input the agent cannot
 * use: an unknown kind in a subscription is named with the accepted kinds,
 * and an input answering a question that is not pending is flagged.
 */
import test from 'ava';
import { WsServer } from '../sinks/wsServer.js';
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
