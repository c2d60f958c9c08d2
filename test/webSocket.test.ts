import test from 'ava';
import type { IncomingMessage } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Subject } from 'rxjs';
import WebSocket from 'ws';
import { requestRefusal } from '../sinks/requestGuard.js';
import { toWebSocket, type WebSocketSinkOptions } from '../sinks/toWebSocket.js';
import { STARTING_ERROR, WsServer, type WsServerOptions } from '../sinks/wsServer.js';
import type { AgentEvent } from '../streams/events.js';
import { demoKnowledgeFile } from '../streams/demo.js';
import { startProgram, type RunningProgram } from '../streams/program.js';
import { AgentConfig } from '../streams/config.js';
import { CLOSE_SLOW_CONSUMER } from '../streams/wsProtocol.js';

const TOKEN = 'test-token-1234';

/** A ws client that records every message (arrays flattened) but keepalives, which it counts, and its close. */
class Client {
  readonly messages: any[] = [];
  keepalives = 0;
  /** Events received (counted even when not kept). */
  received = 0;
  closed: { code: number; reason: string } | undefined;
  raw: Socket | undefined;
  readonly ready: Promise<void>;
  readonly socket: WebSocket;

  /** `keep: false` only counts events (for floods). */
  constructor(url: string, options: WebSocket.ClientOptions = {}, private readonly keep = true) {
    this.socket = new WebSocket(url, {
      ...options,
      createConnection: (opts: any) => (this.raw = createConnection(opts)),
    } as WebSocket.ClientOptions);
    this.socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'keepalive') {
        this.keepalives++;
        return;
      }
      const batch = Array.isArray(message) ? message : [message];
      this.received += batch.filter((m) => typeof m.kind === 'string').length;
      if (this.keep) this.messages.push(...batch);
    });
    this.socket.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }

  get events(): AgentEvent[] {
    return this.messages.filter((m) => typeof m.kind === 'string');
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Sends and resolves with the answer (ack or error) carrying the same id, or the next answer. */
  async ask(message: Record<string, unknown> | string): Promise<any> {
    const before = this.answers().length;
    this.send(message);
    await until(() => this.answers().length > before, 'an answer');
    return this.answers()[before];
  }

  answers(): any[] {
    return this.messages.filter((m) => m.type === 'ack' || m.type === 'error');
  }
}

/** Waits (bounded: 10 s) until `check` holds. */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The real program (as `ooda run --ws 0`) over the demo knowledge, with the given goals. */
async function startLive(t: { teardown(fn: () => unknown): void }, goals: string[], server: WsServerOptions = {}): Promise<{ program: RunningProgram; server: WsServer }> {
  const ws = await WsServer.listen({ port: 0, token: TOKEN, ...server });
  const stdout = new PassThrough();
  stdout.resume();
  const program = startProgram(
    {
      config: AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 200 }),
      goals,
      session: 'ws-test',
      format: 'ndjson',
      readStdin: false,
      files: [demoKnowledgeFile()],
      vitalsMs: 0,
      ws,
    },
    { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
  );
  t.teardown(async () => {
    program.stop('test over');
    await program.done;
  });
  return { program, server: ws };
}

function client(t: { teardown(fn: () => unknown): void }, url: string, options?: WebSocket.ClientOptions, keep = true): Client {
  const c = new Client(url, options, keep);
  t.teardown(() => c.socket.terminate());
  return c;
}

/** A client and every message it gets, parsed, in order (keepalives and errors included). */
function recordingClient(t: { teardown(fn: () => unknown): void }, url: string): { c: Client; raw: any[] } {
  const c = client(t, url);
  const raw: any[] = [];
  c.socket.on('message', (data) => raw.push(JSON.parse(String(data))));
  return { c, raw };
}

test('a late joiner gets a snapshot of goals, memory and decisions, then the last events', async (t) => {
  const { program, server } = await startLive(t, ['Find moons of Mars']);
  await until(() => program.agent.mind.goals.all().every((g) => g.status === 'Completed') && program.agent.mind.cycle > 0, 'the goal to complete');
  const late = client(t, server.wsUrl);
  await until(() => late.messages.length >= 2, 'snapshot and replay');
  const [snapshot, ...replayed] = late.messages;
  t.is(snapshot.type, 'snapshot');
  t.is(snapshot.session, 'ws-test');
  t.deepEqual(snapshot.goals.map((g: any) => [g.description, g.status]), [['Find moons of Mars', 'Completed']]);
  t.is(snapshot.memory.capacity, 100);
  t.true(snapshot.memory.size > 0);
  t.true(snapshot.decisions.length > 0);
  t.regex(snapshot.decisions[0].breakdown, /^\[score=/);
  t.true(replayed.length > 0, 'the events before the connection are replayed (what: wsReplayHistory.test.ts)');
  t.true(replayed.some((e: any) => e.kind === 'decision'));
  const seqs = replayed.map((e: any) => e.seq);
  t.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'replayed in order');
  t.true(replayed.some((e: any) => e.seq === snapshot.seq), 'the snapshot names the last event it includes');
});

test('subscriptions filter by kind (query string or message); signals from a client enter the agent', async (t) => {
  const { server } = await startLive(t, []);
  const goalsOnly = client(t, `${server.wsUrl}?subscribe=goal`);
  const decisionsOnly = client(t, server.wsUrl);
  const everything = client(t, server.wsUrl);
  // An empty list is no kinds, as {"subscribe": []}: it used to mean every kind.
  const senderOnly = client(t, `${server.wsUrl}?subscribe=`);
  await Promise.all([goalsOnly.ready, decisionsOnly.ready, everything.ready, senderOnly.ready]);
  t.like(await decisionsOnly.ask({ subscribe: ['decision'] }), { type: 'ack', accepted: 'subscribe', kinds: ['decision'] });
  const afterSubscribe = decisionsOnly.messages.length;
  const ack = await everything.ask({ id: 'g1', token: TOKEN, signal: { type: 'goal', description: 'Find moons of Mars' } });
  t.deepEqual(ack, { type: 'ack', id: 'g1', accepted: 'goal' });
  await until(() => decisionsOnly.events.length > 0 && goalsOnly.events.some((e: any) => e.status === 'Completed'), 'goal and decision events');
  await until(() => everything.events.some((e) => e.kind === 'action'), 'all kinds at the unfiltered client');
  t.deepEqual([...new Set(goalsOnly.events.map((e) => e.kind))], ['goal']);
  t.deepEqual(senderOnly.events, []);
  t.deepEqual([...new Set(decisionsOnly.messages.slice(afterSubscribe).map((e) => e.kind))], ['decision']);
  const perceived = everything.events.find((e) => e.kind === 'perceived' && e.signalType === 'goal') as AgentEvent<'perceived'>;
  t.is(perceived.source, 'ws-3');
  t.is(perceived.signalType, 'goal');
});

test('anything but subscribe needs the token; bad input gets an error naming the problem and the server lives', async (t) => {
  const { server } = await startLive(t, []);
  const c = client(t, server.wsUrl);
  await c.ready;
  const goal = { type: 'goal', description: 'Find moons of Mars' };
  t.like(await c.ask({ id: 'a', signal: goal }), { type: 'error', id: 'a', error: 'unauthorised: signals need the control token ("token" field)' });
  t.like(await c.ask({ id: 'b', token: 'wrong-token-000', signal: goal }), { type: 'error', id: 'b', error: 'unauthorised: wrong token' });
  t.regex((await c.ask('{"signal": ')).error, /^not JSON: /);
  t.regex((await c.ask({ hello: 1 })).error, /^unknown message: expected \{"subscribe"/);
  t.is((await c.ask({ subscribe: ['decision', 'bogus'] })).error.split(':')[0], 'invalid subscribe');
  t.deepEqual(await c.ask({ id: 's1', subscribe: ['action'] }), { type: 'ack', id: 's1', accepted: 'subscribe', kinds: ['action'] }, 'a subscribe may carry an id, echoed like a signal\'s');
  t.like(await c.ask({ id: 's2', subscribe: ['bogus'] }), { type: 'error', id: 's2' });
  t.like(await c.ask({ id: 's3', subscribe: '*', extra: 1 }), { type: 'error', id: 's3', error: 'invalid subscribe: extra: Unrecognized key: "extra"' });
  t.like(await c.ask({ id: 's4', subscribe: 'decision' }), { type: 'error', id: 's4', error: 'invalid subscribe: subscribe: expected "*" (every kind) or an array of event kinds, e.g. ["decision","goal"]' });
  t.like(await c.ask({ id: 'u', token: TOKEN, signal: { type: 'teleport' } }), { error: 'unknown signal type "teleport" (expected one of goal, fact, input, command)' }, 'the types this transport accepts');
  t.like(await c.ask({ id: 'v', token: TOKEN, signal: { type: 'fact', subject: 'goal-1', predicate: 'agent:explored', object: 'mars' } }), { type: 'error', error: 'invalid fact signal: predicate: "agent:explored" is reserved: agent:* predicates are the runtime\'s own bookkeeping' }, 'refused in the ack, not acked then rejected');
  t.like(await c.ask({ id: 'c', token: TOKEN, signal: { ...goal, priority: 900 } }), { id: 'c', error: 'invalid goal signal: priority: Too big: expected number to be <=255' });
  t.like(await c.ask({ id: 'd', token: TOKEN, signal: { type: 'sensor', sensor: 'x', value: 1 } }), { error: 'sensor signals are not accepted over WebSocket (expected one of goal, fact, input, command)' });
  t.regex((await c.ask({ id: 'e', token: TOKEN, signal: { type: 'command', command: 'explode' } })).error, /^invalid command signal: command: Invalid option/);
  t.like(await c.ask({ id: 'f', token: TOKEN, signal: goal, extra: true }), { error: 'invalid signal message: extra: Unrecognized key: "extra"' });
  const binary = c.answers().length;
  c.socket.send(Buffer.from([1, 2, 3]));
  await until(() => c.answers().length > binary, 'the binary answer');
  t.is(c.answers()[binary].error, 'binary frames are not accepted: send JSON text');
  t.like(await c.ask({ id: 'g', token: TOKEN, signal: { type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Deimos' } }), { type: 'ack', accepted: 'fact' });
  t.is(c.closed, undefined);
});

test('a frame over maxPayload closes that client with 1009; others and new clients are served', async (t) => {
  const { server } = await startLive(t, []);
  const big = client(t, server.wsUrl);
  const other = client(t, server.wsUrl);
  await Promise.all([big.ready, other.ready]);
  big.send({ id: 'x', token: TOKEN, signal: { type: 'input', text: 'x'.repeat(70 * 1024) } });
  await until(() => big.closed !== undefined, 'the oversized client to close');
  t.is(big.closed!.code, 1009);
  t.like(await other.ask({ id: 'y', token: TOKEN, signal: { type: 'input', text: 'still here' } }), { type: 'ack', accepted: 'input' });
  const late = client(t, server.wsUrl);
  await until(() => late.messages.some((m) => m.type === 'snapshot'), 'a new client');
  t.pass();
});

test('the HTTP side: dashboard at /, 404 elsewhere, no foreign Host or Origin, bad ?subscribe refused', async (t) => {
  const { server } = await startLive(t, []);
  const page = await fetch(server.url);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type')!, /^text\/html/);
  t.regex(await page.text(), /<title>ooda-rx/);
  t.is((await fetch(`${server.url}app.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.is((await fetch(`${server.url}../package.json`)).status, 404);
  t.is((await fetch(`${server.url}ws`)).status, 426);
  const refusedBy = (url: string, headers: Record<string, string>) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(url, { headers });
      ws.on('unexpected-response', (_req, res) => resolve(`${res.statusCode}`));
      ws.on('open', () => resolve('open'));
      ws.on('error', () => undefined);
    });
  t.is(await refusedBy(server.wsUrl, { origin: 'http://evil.example' }), '403');
  t.is(await refusedBy(server.wsUrl, { host: 'evil.example' }), '403');
  t.is(await refusedBy(`${server.wsUrl}?subscribe=nope`, {}), '400');
  t.is(await refusedBy(server.wsUrl, { origin: server.url.slice(0, -1) }), 'open');
});

/** Resolves with 'open' or the HTTP status (and body) a WebSocket upgrade was refused with. */
function upgradeOutcome(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise<string>((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve(`${res.statusCode} ${body.trim()}`));
    });
    ws.on('open', () => {
      resolve('open');
      ws.close();
    });
    ws.on('error', () => undefined);
  });
}

test('origins lets the named web pages (or any, with *) connect besides the server\u2019s own; others are still refused', async (t) => {
  const { server } = await startLive(t, [], { origins: ['http://localhost:3000'] });
  t.is(await upgradeOutcome(server.wsUrl, { origin: 'http://localhost:3000' }), 'open');
  t.is(await upgradeOutcome(server.wsUrl, { origin: server.url.slice(0, -1) }), 'open');
  t.is(await upgradeOutcome(server.wsUrl, { origin: 'http://localhost:3001' }), '403 Origin "http://localhost:3001" is not this server nor an allowed origin (http://localhost:3000)');
  const any = await startLive(t, [], { origins: ['*'] });
  t.is(await upgradeOutcome(any.server.wsUrl, { origin: 'https://anywhere.example' }), 'open');
  await t.throwsAsync(WsServer.listen({ port: 0, origins: ['http://localhost:3000/'] }), {
    message: 'WsServer origins: expected an origin as browsers send it (scheme://host[:port], no path or trailing slash): "http://localhost:3000", got "http://localhost:3000/"',
  });
});

test('off loopback a browser Origin must still be the server\u2019s own or allowed, and the Host an IP address, a loopback name or an allowed name: a DNS-rebinding site is refused', (t) => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  const onLan = (headers: Record<string, string>, origins: string[] = [], hosts: string[] = []) => requestRefusal(request(headers), '0.0.0.0', origins, hosts);
  t.is(onLan({ host: '192.168.1.20:8080', origin: 'http://192.168.1.20:8080' }), null);
  t.is(onLan({ host: '[fe80::1]:8080', origin: 'http://[fe80::1]:8080' }), null);
  t.is(onLan({ host: 'LOCALHOST:8080' }), null);
  t.is(onLan({ host: '192.168.1.20:8080' }), null, 'not a browser');
  t.is(onLan({ host: 'rebind.evil.example:8080', origin: 'http://rebind.evil.example:8080' }), 'Host "rebind.evil.example:8080" is not an IP address nor a loopback name (allow it with the hosts option, --allow-host rebind.evil.example)');
  t.is(onLan({ host: 'agent.lan:8080', origin: 'https://agent.lan:8080' }, [], ['Agent.LAN']), null, 'an allowed name, behind a TLS proxy that keeps Host');
  t.is(onLan({ host: 'other.lan:8080' }, [], ['agent.lan']), 'Host "other.lan:8080" is not an IP address nor a loopback name nor an allowed host (agent.lan)');
  t.is(onLan({ host: 'anything.example' }, [], ['*']), null);
  t.is(onLan({}), 'Host "" is not an IP address nor a loopback name (allow it with the hosts option, --allow-host)');
  t.is(onLan({ host: '127.0.0.1:8080', origin: 'https://evil.example' }), 'Origin "https://evil.example" is not this server (allow it with the origins option, --origin)');
  t.is(onLan({ host: 'agent.lan:8080', origin: 'https://dash.example.com' }, ['https://dash.example.com'], ['agent.lan']), null);
  t.is(requestRefusal(request({ host: 'evil.example:8080' }), '127.0.0.1', ['*']), 'Host "evil.example:8080" is not a loopback name (allow it with the hosts option, --allow-host evil.example)', 'origins do not open a loopback server to foreign Hosts');
  t.is(requestRefusal(request({ host: '10.0.0.5:8080' }), '127.0.0.1', []), 'Host "10.0.0.5:8080" is not a loopback name (allow it with the hosts option, --allow-host 10.0.0.5)', 'a loopback server answers to loopback names only');
});

test('hosts lets a server answer requests addressed to the names it lists; others are refused with 403 naming the Host', async (t) => {
  const { server } = await startLive(t, [], { hosts: ['dash.example.com'] });
  t.is(await upgradeOutcome(server.wsUrl, { host: 'dash.example.com', origin: 'https://dash.example.com' }), 'open');
  t.is(await upgradeOutcome(server.wsUrl, { host: 'rebind.example' }), '403 Host "rebind.example" is not a loopback name nor an allowed host (dash.example.com)');
  await t.throwsAsync(WsServer.listen({ port: 0, hosts: ['dash.example.com:443'] }), {
    message: 'WsServer hosts: expected a host name such as agent.lan (no scheme, port or path) or *, got "dash.example.com:443"',
  });
  await t.throwsAsync(WsServer.listen({ port: 0, hosts: 'dash.example.com' as unknown as string[] }), { message: 'WsServer hosts: expected an array of host names, got "dash.example.com"' });
});

test('a client past maxClients is refused with 503 naming the limit; a freed place is taken again', async (t) => {
  const { server } = await startLive(t, [], { maxClients: 2 });
  const first = client(t, server.wsUrl);
  const second = client(t, server.wsUrl);
  await Promise.all([first.ready, second.ready]);
  t.is(await upgradeOutcome(server.wsUrl), '503 too many clients: this server takes 2 at once (maxClients)');
  first.socket.close();
  await until(() => server.stats().clients === 1, 'the first client to be gone');
  t.is(await upgradeOutcome(server.wsUrl), 'open');
  t.is(second.closed, undefined);
  await t.throwsAsync(WsServer.listen({ port: 0, maxClients: 0 }), { message: 'WsServer maxClients: expected a whole number of clients ≥ 1, got 0' });
});

test('ping/pong drops a peer that stopped answering; a live one stays', async (t) => {
  const { server } = await startLive(t, [], { pingIntervalMs: 250 });
  const dead = client(t, server.wsUrl, { autoPong: false });
  const alive = client(t, server.wsUrl);
  await Promise.all([dead.ready, alive.ready]);
  await until(() => dead.closed !== undefined, 'the dead peer to be dropped');
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.is(alive.closed, undefined);
  t.is(server.stats().dropped, 1);
});

test('a live peer is not dropped when the event loop was blocked past a ping interval before its pong was read', async (t) => {
  const { server } = await startLive(t, [], { pingIntervalMs: 100 });
  const alive = client(t, server.wsUrl);
  await alive.ready;
  let blocked = false;
  // The client answers the ping at once; the loop then stays blocked for three intervals, so the server's next ping check runs before that pong is read.
  alive.socket.once('ping', () => {
    const end = performance.now() + 300;
    while (performance.now() < end);
    blocked = true;
  });
  await until(() => blocked, 'a ping');
  await new Promise((resolve) => setTimeout(resolve, 400));
  t.is(alive.closed, undefined);
  t.is(server.stats().dropped, 0);
});

test('a token shorter than 8 characters (blanks aside) is refused by WsServer.listen, as by the CLI', async (t) => {
  for (const token of ['short', '  1234567  ']) await t.throwsAsync(WsServer.listen({ port: 0, token }), { message: 'WsServer token: use at least 8 characters' });
  const server = await WsServer.listen({ port: 0, token: '12345678' });
  await server.close();
  t.pass();
});

test('WsServer.listen refuses a period Node cannot honour, and other bad options, naming the option', async (t) => {
  const refused = async (options: Record<string, unknown>, message: string) => t.throwsAsync(WsServer.listen({ port: 0, token: TOKEN, ...options } as WsServerOptions), { message });
  await refused({ keepaliveMs: 1e12 }, 'WsServer keepaliveMs: expected 0 (none) or a number of ms up to 2147483647, got 1000000000000');
  await refused({ keepaliveMs: -5 }, 'WsServer keepaliveMs: expected 0 (none) or a number of ms up to 2147483647, got -5');
  await refused({ pingIntervalMs: 0 }, 'WsServer pingIntervalMs: expected a number of ms above 0, up to 2147483647, got 0');
  await refused({ pingIntervalMs: NaN }, 'WsServer pingIntervalMs: expected a number of ms above 0, up to 2147483647, got NaN');
  await refused({ closeTimeoutMs: '2000' }, 'WsServer closeTimeoutMs: expected a number of ms from 0 to 2147483647, got "2000"');
  await refused({ maxPayload: 0 }, 'WsServer maxPayload: expected a whole number of bytes ≥ 1, got 0');
  await refused({ port: 70000 }, 'WsServer port: expected a port number from 0 (any free port) to 65535, got 70000');
  await refused({ host: 127 }, 'WsServer host: expected a string, got 127');
  const server = await WsServer.listen({ port: 0, token: TOKEN, keepaliveMs: 0, pingIntervalMs: 2147483647, closeTimeoutMs: 0 });
  await server.close();
});

test('toWebSocket refuses a bad option, naming it: a cap that is not a number would let a client that never reads grow memory without bound', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const refused = (options: Record<string, unknown>, message: string) => t.throws(() => toWebSocket(server, options as WebSocketSinkOptions), { message });
  refused({ maxQueuedBytes: NaN }, 'toWebSocket maxQueuedBytes: expected a whole number of bytes ≥ 1, got NaN');
  refused({ maxQueuedBytes: '4MiB' }, 'toWebSocket maxQueuedBytes: expected a whole number of bytes ≥ 1, got "4MiB"');
  refused({ maxQueuedBytes: -1 }, 'toWebSocket maxQueuedBytes: expected a whole number of bytes ≥ 1, got -1');
  refused({ replay: -1 }, 'toWebSocket replay: expected a whole number of events ≥ 0, got -1');
  refused({ replay: 1.5 }, 'toWebSocket replay: expected a whole number of events ≥ 0, got 1.5');
  refused({ maxFrameBytes: 0 }, 'toWebSocket maxFrameBytes: expected a whole number of bytes ≥ 1, got 0');
  refused({ snapshot: {} }, 'toWebSocket snapshot: expected a function, got an object');
  t.notThrows(() => toWebSocket(server, { maxQueuedBytes: 1, replay: 0, maxFrameBytes: 1, snapshot: undefined }));
});

test('every client gets a keepalive message every keepaliveMs, events or not', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN, keepaliveMs: 100 });
  t.teardown(() => server.close());
  const { c, raw } = recordingClient(t, server.wsUrl);
  await until(() => c.keepalives >= 3, 'three keepalives');
  t.deepEqual(raw[0], { type: 'keepalive', intervalMs: 100 });
});

/** The snapshot of a session with nothing in it yet. */
const emptySnapshot = (session: string) => ({ type: 'snapshot' as const, session, cycle: 0, paused: false, goals: [], memory: { size: 0, capacity: 100, pressure: 0, recent: [] }, decisions: [], episodes: 0, facts: 0 });

test('a client gets a keepalive as it connects, after the snapshot, saying the interval: 0 when none will follow', async (t) => {
  for (const keepaliveMs of [60_000, 0]) {
    const server = await WsServer.listen({ port: 0, token: TOKEN, keepaliveMs });
    t.teardown(() => server.close());
    const events$ = new Subject<AgentEvent>();
    events$.subscribe(toWebSocket(server, { snapshot: () => emptySnapshot('quiet') }));
    const { c, raw } = recordingClient(t, server.wsUrl);
    await until(() => c.keepalives >= 1, 'the keepalive on connect');
    t.deepEqual(
      raw.map((m) => m.type),
      ['snapshot', 'keepalive'],
    );
    t.deepEqual(raw[1], { type: 'keepalive', intervalMs: keepaliveMs });
  }
});

test('a client that connects while the run is starting (no listener yet) gets the snapshot, then its keepalive, once the run listens; a signal meanwhile is refused as too early, and after the run stopped as stopped', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN, keepaliveMs: 60_000 });
  t.teardown(() => server.close());
  const { c: early, raw } = recordingClient(t, server.wsUrl);
  await early.ready;
  t.deepEqual(await early.ask({ token: TOKEN, signal: { type: 'fact', subject: 'a', predicate: 'b', object: 'c' } }), { type: 'error', error: STARTING_ERROR });
  t.deepEqual(raw.map((m) => m.type), ['error'], 'no keepalive before the snapshot');
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server, { snapshot: () => emptySnapshot('late') }));
  await until(() => early.keepalives >= 1, 'the keepalive once the run listens');
  t.deepEqual(raw.map((m) => m.type), ['error', 'snapshot', 'keepalive']);
  const stopRouting = server.onSignal(() => ({ ok: true, signal: 'fact' }));
  stopRouting();
  t.deepEqual(await early.ask({ token: TOKEN, signal: { type: 'fact', subject: 'a', predicate: 'b', object: 'c' } }), { type: 'error', error: 'the agent is not accepting signals (it has stopped)' });
});

test('a snapshot option that throws gets the connecting client an error message, then the events; the server and the other clients go on', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN, keepaliveMs: 0 });
  t.teardown(() => server.close());
  const events$ = new Subject<AgentEvent>();
  let snapshots = 0;
  const snapshot = () => {
    if (snapshots++ === 0) throw new Error('extension state unreadable');
    return emptySnapshot('s');
  };
  events$.subscribe(toWebSocket(server, { snapshot }));
  const first = client(t, server.wsUrl);
  await first.ready;
  await until(() => first.messages.length >= 1, 'the error reply');
  t.deepEqual(first.messages[0], { type: 'error', error: 'snapshot failed: extension state unreadable; the events follow without it' });
  const second = client(t, server.wsUrl);
  await second.ready;
  await until(() => second.messages.length >= 1, 'the snapshot');
  t.like(second.messages[0], { type: 'snapshot', session: 's' });
  events$.next({ kind: 'heartbeat', seq: 1, session: 's', cycle: 0, at: 0, beat: 1 } as AgentEvent);
  await until(() => first.events.length === 1 && second.events.length === 1, 'the event at both clients');
  t.is(first.closed, undefined);
});

test('when the agent stops, clients are closed with 1001 and the server closes', async (t) => {
  const { program, server } = await startLive(t, []);
  const c = client(t, server.wsUrl);
  await c.ready;
  t.like(await c.ask({ token: TOKEN, signal: { type: 'command', command: 'stop' } }), { type: 'ack', accepted: 'command' });
  t.is(await program.done, 'stop command');
  await until(() => c.closed !== undefined, 'the close');
  t.deepEqual(c.closed, { code: 1001, reason: 'agent stopped' });
  await t.throwsAsync(fetch(server.url));
});

test('a client that stops reading is dropped at the cap while another keeps receiving; server memory stays bounded', async (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // The dropped client reads its close frame only once everything is published: on a busy machine that took more than 10 s.
  const server = await WsServer.listen({ port: 0, token: TOKEN, closeTimeoutMs: 120_000 });
  t.teardown(() => server.close());
  const cap = 1024 * 1024;
  const events$ = new Subject<AgentEvent>();
  const sink = toWebSocket(server, { maxQueuedBytes: cap, replay: 10 });
  events$.subscribe(sink);
  const slow = client(t, server.wsUrl);
  const reader = client(t, server.wsUrl, {}, false);
  await Promise.all([slow.ready, reader.ready]);
  slow.raw!.pause();

  const memory = (): number => {
    gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const baseline = memory();
  let peak = 0;
  const padding = 'x'.repeat(1000);
  const total = 48 * 1024;
  let published = 0;
  for (let burst = 0; published < total; burst++) {
    for (let i = 0; i < 64; i++) {
      published++;
      events$.next({ kind: 'input', seq: published, session: 's', cycle: 0, at: published, text: padding } as AgentEvent);
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (burst % 32 === 0) {
      await until(() => reader.received >= published - 64 * 4, 'the reader to keep up');
      peak = Math.max(peak, memory() - baseline);
    }
  }
  await until(() => reader.received === published, 'the reader to get every event');
  t.is(sink.stats().dropped, 1);
  t.is(server.stats().dropped, 1);
  t.is(reader.closed, undefined);
  t.true(peak < cap + 8 * 1024 * 1024, `memory grew by ${(peak / 1048576).toFixed(1)} MiB while ${published} KiB were published`);
  t.log(`peak growth ${(peak / 1048576).toFixed(1)} MiB for ${(published / 1024).toFixed(0)} MiB published, cap ${cap / 1048576} MiB`);
  slow.raw!.resume();
  await until(() => slow.closed !== undefined, 'the slow client to read its close frame');
  t.is(slow.closed!.code, CLOSE_SLOW_CONSUMER);
  t.regex(slow.closed!.reason, /^slow consumer: \d+ bytes queued, over the cap of 1048576$/);
});
