/**
 * The agent's one HTTP server: the dashboard's static files at `/` and a
 * WebSocket endpoint at `/ws` (protocol in streams/wsProtocol.ts).
 *
 * It owns the connections: it parses every inbound frame, keeps each
 * client's subscription, checks the control token on anything but
 * `subscribe`, hands signal messages to the registered {@link SignalChannel}
 * handler (the WebSocket input source) and answers with an ack or an error
 * naming the problem. Bad JSON, unknown messages and binary frames get an
 * error; a frame over `maxPayload` closes that client with 1009; the server
 * lives on. Ping/pong every `pingIntervalMs` drops peers that answered
 * neither of the last two pings. A client that does not read what it is
 * answered is dropped with 4008 (sinks/wsConnection.ts). Every
 * `keepaliveMs` each client gets a `keepalive` message, so a browser (which
 * cannot see pings) can tell a silent server from a quiet one; it gets one as
 * it connects too, after what the listeners sent it first (the sink's
 * snapshot; a client that connects before any listener, while the run is
 * starting, gets both once the first listens), saying the interval
 * (`intervalMs: 0`: none will come, so silence means nothing). A signal sent
 * before the run takes signals is answered {@link STARTING_ERROR}; one sent
 * after it stopped, that it has stopped.
 * Event delivery is the sink's job (sinks/toWebSocket.ts).
 *
 * Bound to 127.0.0.1 unless `host` says otherwise; every request passes the
 * request guard (sinks/requestGuard.ts: a Host no DNS-rebinding site can send
 * or allowed by `hosts`, a browser Origin of the server's own or allowed by `origins`). At most
 * `maxClients` clients are connected at once: one more is refused with 503.
 * The pages themselves are sinks/dashboardPages.ts.
 *
 * Options, their defaults and the checks made before anything listens:
 * sinks/wsServerOptions.ts.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { packageRoot } from '../streams/packageRoot.js';
import { serveDashboard } from './dashboardPages.js';
import { requestRefusal } from './requestGuard.js';
import { badTarget, requestTarget } from './requestTarget.js';
import { Connection, type WsClient } from './wsConnection.js';
import { checkServerOptions, type WsServerOptions } from './wsServerOptions.js';
import {
  CLOSE_GOING_AWAY,
  describeIssue,
  SignalMessage,
  type Ack,
  type ErrorReply,
  type Keepalive,
  type SignalChannel,
  type SignalRequest,
  type SignalVerdict,
  type Subscription,
} from '../streams/wsProtocol.js';
import { subscriptionFromMessage, subscriptionFromQuery } from '../streams/wsSubscription.js';

/** Called for each new client; may return a teardown run when the client goes. */
export type ConnectionListener = (client: WsClient) => (() => void) | void;

export type { WsClient, WsServerOptions };

export const DEFAULT_MAX_PAYLOAD = 64 * 1024;
export const DEFAULT_PING_INTERVAL_MS = 15_000;
export const DEFAULT_KEEPALIVE_MS = 5_000;
export const DEFAULT_MAX_QUEUED_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_CLIENTS = 128;

/**
 * Why a control token cannot be used, or null: it needs 8 characters besides
 * surrounding blanks, and none of those (the dashboard trims what is pasted,
 * so it could never send a token that has them).
 */
export function tokenProblem(token: string): string | null {
  if (token.trim().length < 8) return 'use at least 8 characters';
  if (token.trim() !== token) return 'it starts or ends with blanks, which the dashboard trims from what is pasted: leave them out';
  return null;
}

/** The answer to a signal that comes before the run takes signals (its store opening, a crashed session's signals re-applied). */
export const STARTING_ERROR = 'not accepted yet: the agent is starting (opening its store, or re-applying a crashed session); send it again later';

const SIGNAL_HELP = 'expected {"subscribe": [kinds…] | "*"} or {"id"?, "token", "signal": {"type": …}}';

export class WsServer implements SignalChannel {
  readonly token: string;
  /** Whether the token was generated (so the CLI should print it). */
  readonly tokenGenerated: boolean;
  /** How many bytes may wait to be sent to a client before it is dropped as a slow consumer (4008). */
  readonly maxQueuedBytes: number;
  /** The port it listens on (the one picked when asked for port 0). */
  port = 0;
  private readonly connections = new Set<Connection>();
  private readonly listeners = new Set<ConnectionListener>();
  private signalHandler: ((request: SignalRequest) => SignalVerdict) | undefined;
  /** Whether a signal handler was ever registered: before one is, the run is still starting. */
  private signalHandled = false;
  private readonly wss: WebSocketServer;
  private readonly http: Server;
  private readonly pinger: NodeJS.Timeout;
  private readonly keepalive: NodeJS.Timeout | undefined;
  /** The keepalive message, as text. */
  private readonly keepaliveFrame: string;
  private readonly dashboardDir: string;
  private readonly closeTimeoutMs: number;
  private connected = 0;
  private droppedCount = 0;
  private closing: Promise<void> | undefined;

  /** Starts a server and resolves once it listens; rejects with the listen error (e.g. EADDRINUSE). */
  static async listen(options: WsServerOptions = {}): Promise<WsServer> {
    const server = new WsServer(options);
    await new Promise<void>((resolve, reject) => {
      server.http.once('error', reject);
      server.http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.http.off('error', reject);
        server.port = (server.http.address() as AddressInfo).port;
        resolve();
      });
    });
    return server;
  }

  private constructor(private readonly options: WsServerOptions) {
    checkServerOptions(options);
    const problem = options.token === undefined ? null : tokenProblem(options.token);
    if (problem) throw new Error(`WsServer token: ${problem}`);
    this.tokenGenerated = options.token === undefined;
    this.token = options.token ?? randomBytes(16).toString('hex');
    this.dashboardDir = options.dashboardDir ?? join(packageRoot(), 'dashboard');
    this.closeTimeoutMs = options.closeTimeoutMs ?? 2000;
    this.maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD });
    this.http = createServer((req, res) => void serveDashboard(req, res, this.dashboardDir, this.allowed(req)));
    this.http.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    this.pinger = setInterval(() => this.ping(), options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS);
    this.pinger.unref();
    const keepaliveMs = options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS;
    this.keepaliveFrame = JSON.stringify({ type: 'keepalive', intervalMs: keepaliveMs } satisfies Keepalive);
    if (keepaliveMs > 0) {
      this.keepalive = setInterval(() => {
        for (const connection of this.connections) connection.sendChecked(this.keepaliveFrame);
      }, keepaliveMs);
      this.keepalive.unref();
    }
  }


  /** The dashboard's address, e.g. `http://127.0.0.1:8080/`. */
  get url(): string {
    return `http://${this.hostForUrl()}:${this.port}/`;
  }

  /** The WebSocket endpoint, e.g. `ws://127.0.0.1:8080/ws`. */
  get wsUrl(): string {
    return `ws://${this.hostForUrl()}:${this.port}/ws`;
  }

  /** Connected clients now, connections ever accepted, clients dropped (slow, dead). */
  stats(): { clients: number; connected: number; dropped: number } {
    return { clients: this.connections.size, connected: this.connected, dropped: this.droppedCount };
  }

  /** Calls `listener` for every client, present and future; returns a function that stops it. A client that came before any listener gets its keepalive after this one's snapshot. */
  onConnection(listener: ConnectionListener): () => void {
    this.listeners.add(listener);
    for (const connection of this.connections) {
      this.attach(connection, listener);
      if (!connection.greeted) this.greeted(connection);
    }
    return () => this.listeners.delete(listener);
  }

  onSignal(handler: (request: SignalRequest) => SignalVerdict): () => void {
    if (this.signalHandler) throw new Error('WsServer: a signal handler is already registered');
    this.signalHandled = true;
    this.signalHandler = handler;
    return () => {
      if (this.signalHandler === handler) this.signalHandler = undefined;
    };
  }

  /** Closes every client with 1001 and `reason`, then the server. Idempotent. */
  close(reason = 'agent stopped'): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      clearInterval(this.pinger);
      clearInterval(this.keepalive);
      const gone = [...this.connections].map((c) => new Promise<void>((done) => {
        c.socket.once('close', () => done());
        c.close(CLOSE_GOING_AWAY, reason);
      }));
      this.http.close(() => undefined);
      this.http.closeAllConnections();
      void Promise.all(gone).then(() => this.wss.close(() => resolve()));
    });
    return this.closing;
  }

  private hostForUrl(): string {
    const host = this.options.host ?? '127.0.0.1';
    return host.includes(':') ? `[${host}]` : host;
  }

  private attach(connection: Connection, listener: ConnectionListener): void {
    const teardown = listener(connection);
    if (teardown) connection.teardowns.push(teardown);
  }

  /** Why a request must be refused (a Host a rebinding site could send, a foreign Origin), or null. */
  private allowed(req: IncomingMessage): string | null {
    return requestRefusal(req, this.options.host ?? '127.0.0.1', this.options.origins ?? [], this.options.hosts);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Node's HTTP server stops listening for errors on a socket it hands over for an
    // upgrade: a peer that resets while its refusal is written would crash the process.
    socket.on('error', () => socket.destroy());
    const refused = this.allowed(req);
    if (refused) return refuse(socket, 403, refused);
    const url = requestTarget(req);
    if (!url) return refuse(socket, 400, badTarget(req));
    const kinds = subscriptionFromQuery(url.searchParams.get('subscribe'));
    if (url.pathname !== '/ws') return refuse(socket, 404, `no WebSocket endpoint at ${url.pathname} (use /ws)`);
    if ('problem' in kinds) return refuse(socket, 400, kinds.problem);
    if (this.closing) return refuse(socket, 503, 'server closing');
    const maxClients = this.options.maxClients ?? DEFAULT_MAX_CLIENTS;
    if (this.connections.size >= maxClients) return refuse(socket, 503, `too many clients: this server takes ${maxClients} at once (maxClients)`);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connect(ws, kinds.subscription));
  }

  private connect(socket: WebSocket, subscription: Subscription): void {
    const connection = new Connection(`ws-${++this.connected}`, socket, subscription, this.closeTimeoutMs, this.maxQueuedBytes, () => this.droppedCount++);
    this.connections.add(connection);
    socket.on('pong', () => (connection.unanswered = 0));
    socket.on('message', (data, isBinary) => {
      connection.unanswered = 0;
      this.receive(connection, data, isBinary);
    });
    socket.on('error', () => connection.close(1011, 'socket error'));
    socket.once('close', () => {
      connection.open = false;
      this.connections.delete(connection);
      for (const teardown of connection.teardowns.splice(0)) teardown();
    });
    for (const listener of this.listeners) this.attach(connection, listener);
    // With no listener yet (the run is starting: its store opening, a crashed session re-applied), the snapshot and this keepalive wait for the first.
    if (this.listeners.size > 0) this.greeted(connection);
  }

  /** The keepalive a client gets as it connects, after what the listeners sent it first. */
  private greeted(connection: Connection): void {
    connection.greeted = true;
    connection.connectBytes = connection.socket.bufferedAmount;
    connection.sendChecked(this.keepaliveFrame);
  }

  /**
   * Drops the peers that answered neither of the last two pings, and pings
   * the rest. Two, not one: after the event loop was blocked for a whole
   * interval, this timer runs before the pongs that arrived meanwhile are
   * read, and a live peer must not be dropped for that.
   */
  private ping(): void {
    for (const connection of this.connections) {
      if (!connection.open) continue;
      if (connection.unanswered >= 2) {
        this.droppedCount++;
        connection.open = false;
        connection.socket.terminate();
        continue;
      }
      connection.unanswered++;
      connection.socket.ping();
    }
  }

  /**
   * Drops a client (the sink's slow consumers): closes it with `code` and
   * `reason`, destroying the socket after `closeTimeoutMs` if the close frame
   * cannot get out, and counts it in `stats().dropped`.
   */
  drop(client: WsClient, code: number, reason: string): void {
    const connection = [...this.connections].find((c) => c === client);
    if (!connection?.open) return;
    this.droppedCount++;
    connection.close(code, reason);
  }

  private receive(connection: Connection, data: RawData, isBinary: boolean): void {
    // A client being closed (dropped, or the server stopping) is not answered, so nothing it sends now is taken.
    if (!connection.open) return;
    let id: string | undefined;
    const withId = <M extends Ack | ErrorReply>(message: M): M => (id === undefined ? message : { ...message, id });
    const error = (text: string): void => connection.reply(withId({ type: 'error', error: text }));
    if (isBinary) return error('binary frames are not accepted: send JSON text');
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch (e) {
      return error(`not JSON: ${(e as Error).message}`);
    }
    if (message === null || typeof message !== 'object') return error(`unknown message: ${SIGNAL_HELP}`);
    const rawId = (message as { id?: unknown }).id;
    if (typeof rawId === 'string') id = rawId;
    try {
      this.handle(connection, message, id, error, withId);
    } catch (failure) {
      // A message must never take the agent down: what failed is the client's answer.
      error(`could not handle the message: ${String(failure)}`);
    }
  }

  /** Answers a parsed message (`id`: its own, if it has one): a subscribe, or a signal for the handler. */
  private handle(connection: Connection, message: object, id: string | undefined, error: (text: string) => void, withId: <M extends Ack | ErrorReply>(message: M) => M): void {
    if ('subscribe' in message) {
      const subscribed = subscriptionFromMessage(message);
      if ('problem' in subscribed) return error(`invalid subscribe: ${subscribed.problem}`);
      connection.subscription = subscribed.subscription;
      return connection.reply(withId({ type: 'ack', accepted: 'subscribe', kinds: subscribed.kinds }));
    }
    if (!('signal' in message)) return error(`unknown message: ${SIGNAL_HELP}`);
    const parsed = SignalMessage.safeParse(message);
    if (!parsed.success) return error(`invalid signal message: ${describeIssue(parsed.error.issues[0]!)}`);
    if (!this.tokenMatches(parsed.data.token)) {
      return error(parsed.data.token === undefined ? 'unauthorised: signals need the control token ("token" field)' : 'unauthorised: wrong token');
    }
    if (!this.signalHandler) return error(this.signalHandled ? 'the agent is not accepting signals (it has stopped)' : STARTING_ERROR);
    const verdict = this.signalHandler({ client: connection.id, signal: parsed.data.signal, ...(id === undefined ? {} : { id }) });
    if (!verdict.ok) return error(verdict.error);
    connection.reply(withId({ type: 'ack', accepted: verdict.signal }));
  }

  private tokenMatches(token: string | undefined): boolean {
    if (token === undefined) return false;
    const given = Buffer.from(token);
    const expected = Buffer.from(this.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/**
 * Answers an upgrade request with an HTTP error and closes the socket once the
 * answer is out: ending it only half-closes it, and a peer that never closes
 * its side would keep it, and so the process, alive after the server closed.
 */
function refuse(socket: Duplex, status: number, reason: string): void {
  const body = `${reason}\n`;
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
