import test from 'ava';
import { createConnection, type Socket } from 'node:net';
import { Subject } from 'rxjs';
import WebSocket from 'ws';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import { fromWebSocket } from '../sources/wsInput.js';
import { validateSignal } from '../streams/validateSignal.js';
import type { AgentEvent } from '../streams/events.js';
import { CLOSE_SLOW_CONSUMER, type Snapshot } from '../streams/wsProtocol.js';
import { finished, startCli, until } from './helpers/cli.js';
import { connectAsker } from './helpers/wsAsker.js';

const TOKEN = 'test-token-1234';

/** Sends a WebSocket upgrade request to `path` with `origin`, then resets the connection at once; resolves when the socket is gone. */
function upgradeAndReset(port: number, path: string, origin: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`,
      );
      socket.resetAndDestroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

test('a refused upgrade whose client resets the connection before the refusal is written does not crash the server', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  // Each kind of refusal: a foreign Origin (403), a bad ?subscribe (400), a path with no endpoint (403).
  for (let round = 0; round < 30; round++) {
    await Promise.all([
      upgradeAndReset(server.port, '/ws', 'http://evil.example'),
      upgradeAndReset(server.port, '/ws?subscribe=bogus', `http://127.0.0.1:${server.port}`),
      upgradeAndReset(server.port, '/elsewhere', `http://127.0.0.1:${server.port}`),
    ]);
  }
  const page = await fetch(server.url);
  t.is(page.status, 200, 'the server still answers');
});

test('a client that sends without reading its answers is dropped with 4008 at the cap; the server does not queue answers without bound', async (t) => {
  const cap = 1024 * 1024;
  const server = await WsServer.listen({ port: 0, token: TOKEN, maxQueuedBytes: cap, closeTimeoutMs: 10_000 });
  t.teardown(() => server.close());
  let raw: Socket | undefined;
  const flooder = new WebSocket(server.wsUrl, { createConnection: (options: any) => (raw = createConnection(options)) } as WebSocket.ClientOptions);
  t.teardown(() => flooder.terminate());
  let closed: { code: number; reason: string } | undefined;
  flooder.on('close', (code, reason) => (closed = { code, reason: String(reason) }));
  await new Promise((resolve, reject) => flooder.once('open', resolve).once('error', reject));
  raw!.pause();
  // Each frame is refused with an error echoing its 60 KB id: 32 MiB of answers at most, 32 times the cap.
  const frame = JSON.stringify({ id: 'x'.repeat(60_000), subscribe: 5 });
  for (let sent = 0; sent < 560 && server.stats().dropped === 0; sent++) {
    flooder.send(frame);
    if (sent % 16 === 15) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  for (let waited = 0; server.stats().dropped === 0 && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  t.is(server.stats().dropped, 1, 'the client that does not read is dropped');
  raw!.resume();
  for (let waited = 0; closed === undefined && waited < 10_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  t.is(closed?.code, CLOSE_SLOW_CONSUMER);
  t.regex(closed?.reason ?? '', /^slow consumer: \d+ bytes queued, over the cap of 1048576$/);
  const other = new WebSocket(server.wsUrl);
  t.teardown(() => other.terminate());
  await new Promise((resolve, reject) => other.once('open', resolve).once('error', reject));
  t.pass('others still connect');
});

test('WsServer.listen refuses a maxQueuedBytes that is not a whole number of bytes ≥ 1, naming it', async (t) => {
  for (const [maxQueuedBytes, got] of [[0, '0'], [1.5, '1.5']] as const) {
    await t.throwsAsync(WsServer.listen({ port: 0, token: TOKEN, maxQueuedBytes }), { message: `WsServer maxQueuedBytes: expected a whole number of bytes ≥ 1, got ${got}` });
  }
});

test('the agent exits on SIGINT while a client whose upgrade was refused keeps its connection open', async (t) => {
  const child = startCli(['run', '--ws', '0', '--token', TOKEN, '--no-db', '--no-stdin', '--heartbeat', '0']);
  const result = finished(child, 10_000);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await until(() => stderr, /^dashboard: http:\/\/127\.0\.0\.1:\d+\/$/m);
  const port = Number(/^dashboard: http:\/\/127\.0\.0\.1:(\d+)\//m.exec(stderr)![1]);
  // A client that reads its refusal but never closes its side.
  const lingering = createConnection({ host: '127.0.0.1', port, allowHalfOpen: true });
  t.teardown(() => lingering.destroy());
  let answer = '';
  lingering.on('data', (d: Buffer) => (answer += d.toString()));
  lingering.write(
    `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://evil.example\r\n\r\n`,
  );
  await until(() => answer, /^HTTP\/1\.1 403 /);
  child.kill('SIGINT');
  const { code } = await result;
  t.is(code, 130);
});

/** JSON text nested `depth` levels deep: `[[[…1…]]]`, small enough for one frame. */
const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

test('deeply nested JSON in a subscribe or a signal type is answered with an error naming it, not a stack overflow that kills the agent', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const input = fromWebSocket(server).subscribe();
  t.teardown(() => input.unsubscribe());
  const asker = await connectAsker(server.wsUrl);
  t.teardown(() => asker.socket.terminate());
  const deep = nested(10_000);
  t.like(await asker.ask(`{"id": "a", "subscribe": ["goal", ${deep}]}`), { type: 'error', id: 'a' });
  t.regex((await asker.ask(`{"id": "b", "subscribe": [${deep}]}`)).error, /^invalid subscribe: unknown event kind\(s\) an array \(accepted: rejected, /);
  t.like(await asker.ask(`{"id": "c", "token": "${TOKEN}", "signal": {"type": ${deep}}}`), { type: 'error', id: 'c', error: 'unknown signal type an array (expected one of goal, fact, input, command)' });
  t.like(await asker.ask({ id: 'd', subscribe: ['goal'] }), { type: 'ack', id: 'd' }, 'the connection still works');
});

test('a signal on stdin whose type is deeply nested JSON is refused naming it', (t) => {
  t.deepEqual(validateSignal({ type: JSON.parse(nested(10_000)) }), { ok: false, reason: 'unknown signal type an array (expected one of goal, fact, input, sensor, command)' });
});

test('a signal handler that throws is answered with an error naming the failure; the server lives', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  server.onSignal(() => {
    throw new TypeError('handler broke');
  });
  const asker = await connectAsker(server.wsUrl);
  t.teardown(() => asker.socket.terminate());
  t.deepEqual(await asker.ask({ id: 'x', token: TOKEN, signal: { type: 'goal', description: 'g' } }), { type: 'error', id: 'x', error: 'could not handle the message: TypeError: handler broke' });
  t.like(await asker.ask({ id: 'y', subscribe: '*' }), { type: 'ack', id: 'y' });
});

test('a token with blanks at either end, which the dashboard would trim off, is refused by WsServer.listen and the CLI, naming why', async (t) => {
  const why = 'it starts or ends with blanks, which the dashboard trims from what is pasted: leave them out';
  for (const token of [' padded-token-1', 'padded-token-1\t', ' padded-token-1 ']) {
    await t.throwsAsync(WsServer.listen({ port: 0, token }), { message: `WsServer token: ${why}` });
  }
  const { code, stderr } = await finished(startCli(['run', '--ws', '0', '--token', ' padded-token-1 ', '--no-db', '--no-stdin']), 10_000);
  t.is(code, 2);
  t.regex(stderr, new RegExp(`--token: ${why}`));
});

test('an upgrade to a path other than /ws is answered 404 naming the endpoint; a foreign Origin is still 403 there', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const refusal = (path: string, headers: Record<string, string> = {}) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}${path}`, { headers });
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${body.trim()}`));
      });
      ws.on('open', () => resolve('open'));
      ws.on('error', () => undefined);
    });
  t.is(await refusal('/ws/'), '404 no WebSocket endpoint at /ws/ (use /ws)');
  t.is(await refusal('/socket'), '404 no WebSocket endpoint at /socket (use /ws)');
  t.is(await refusal('/socket', { origin: 'http://evil.example' }), '403 Origin "http://evil.example" is not this server (allow it with the origins option, --origin)');
});

test('a client whose snapshot alone is over the cap is not dropped as it connects or is sent events: it has had no chance to read it', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN, maxQueuedBytes: 64 * 1024 });
  t.teardown(() => server.close());
  // About 8 MB of goals, more than the socket takes at once, and 128 times the cap.
  const goals: Snapshot['goals'] = Array.from({ length: 8000 }, (_, i) => ({ goalId: `goal-${i + 1}`, description: `Find qzx ${i + 1} ${'y'.repeat(1000)}`, criteria: '', status: 'Active', priority: 128, childIds: [] }));
  const snapshot = (): Snapshot => ({ type: 'snapshot', session: 'big', cycle: 0, paused: false, goals, memory: { size: 0, capacity: 100, pressure: 0, recent: [] }, decisions: [], episodes: 0, facts: 0 });
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server, { snapshot }));
  let event = false;
  server.onConnection(() => {
    // Published as the snapshot is still on its way.
    setImmediate(() => events$.next({ kind: 'input', seq: 1, session: 'big', cycle: 0, at: 1, text: 'hello' } as AgentEvent));
  });
  const asker = await connectAsker(server.wsUrl);
  t.teardown(() => asker.socket.terminate());
  asker.socket.on('message', (data) => (event ||= String(data).includes('"text":"hello"')));
  let closed: number | undefined;
  asker.socket.on('close', (code) => (closed = code));
  t.like(await asker.ask({ id: 'after', subscribe: '*' }), { type: 'ack', id: 'after' }, 'answered once it read the snapshot');
  t.true(event, 'the event came');
  t.is(closed, undefined);
  t.is(server.stats().dropped, 0);
});

test('after the ack of a subscribe, no event of a kind it left arrives, not even one queued before it', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server));
  const header = { session: 's', cycle: 1, at: 1 };
  // Events published in the same turn as the subscribe message arrives, before the server reads it: queued for the next flush.
  server.onConnection((client) => {
    client.socket.prependListener('message', () => {
      events$.next({ kind: 'input', seq: 1, ...header, text: 'left behind' } as AgentEvent);
      events$.next({ kind: 'goal', seq: 2, ...header, goalId: 'goal-1', description: 'kept', status: 'Active', priority: 128, change: 'created' } as AgentEvent);
    });
  });
  const socket = new WebSocket(server.wsUrl);
  t.teardown(() => socket.terminate());
  const received: any[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.type !== 'keepalive') received.push(...(Array.isArray(message) ? message : [message]));
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ id: 's', subscribe: ['goal'] }));
  for (let waited = 0; !received.some((m) => m.kind === 'goal') && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  const ack = received.findIndex((m) => m.type === 'ack');
  t.true(ack >= 0, 'acked');
  t.deepEqual(received.slice(ack + 1).map((m) => m.kind), ['goal']);
});

/** Sends raw HTTP `request` and resolves with the whole answer, once the server closes or 2 s have passed. */
function rawHttp(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
    setTimeout(() => socket.destroy(), 2000);
  });
}

test('a request whose target is no URL (GET http://[) is answered 400 naming it, as a page or an upgrade, and does not crash the server', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const host = `Host: 127.0.0.1:${server.port}\r\n`;
  const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
  const page = await rawHttp(server.port, `GET http://[ HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
  t.regex(page, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.true(page.includes('bad request target "http://[": not a URL path\n'), page);
  const socket = await rawHttp(server.port, `GET http://[ HTTP/1.1\r\n${host}${upgrade}\r\n`);
  t.regex(socket, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.true(socket.endsWith('bad request target "http://[": not a URL path\n'), socket);
  t.is((await fetch(server.url)).status, 200, 'the server still answers');
});
