/**
 * What a WebSocket client (or stdin) gets told about input the agent cannot
 * use: an unknown kind in a subscription is named with the accepted kinds,
 * and an input answering a question that is not pending is flagged.
 */
import test from 'ava';
import WebSocket from 'ws';
import { WsServer } from '../sinks/wsServer.js';
import { EVENT_KINDS } from '../streams/events.js';
import { events, runCli } from './helpers/cli.js';

test('{"subscribe": [..., "bogus"]} is refused naming "bogus" and the accepted kinds; the connection stays open', async (t) => {
  const server = await WsServer.listen({ port: 0, token: 'subscribe-token' });
  t.teardown(() => server.close('test over'));
  const socket = new WebSocket(server.wsUrl);
  const answers: any[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (!Array.isArray(message) && (message.type === 'ack' || message.type === 'error')) answers.push(message);
  });
  await new Promise((resolve) => socket.once('open', resolve));
  const ask = async (message: object): Promise<any> => {
    const before = answers.length;
    socket.send(JSON.stringify(message));
    while (answers.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    return answers[before];
  };
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
