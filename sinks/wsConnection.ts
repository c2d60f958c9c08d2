/**
 * One WebSocket client of the server (sinks/wsServer.ts): what it is
 * subscribed to, what it is sent, and how much waits to be sent to it. A
 * client with more than `maxQueuedBytes` waiting when it is answered (an ack,
 * an error, a keepalive) is not reading, and is closed with 4008, as the sink
 * (sinks/toWebSocket.ts) closes one that does not read its events; what it
 * was sent as it connected (a snapshot may be over the cap) does not count
 * until it has had the time to read it.
 */
import type { WebSocket } from 'ws';
import type { EventKind } from '../streams/events.js';
import { CLOSE_SLOW_CONSUMER, slowConsumerReason, type ServerMessage, type Subscription } from '../streams/wsProtocol.js';

/** One connected WebSocket client, as the sink sees it. */
export interface WsClient {
  /** `ws-1`, `ws-2`, … in connection order. */
  readonly id: string;
  readonly socket: WebSocket;
  readonly subscription: Subscription;
  /** False once the client is closing (dropped, or gone). */
  readonly open: boolean;
  /** Whether the client is open and subscribed to `kind`. */
  wants(kind: EventKind): boolean;
  /** Sends a pre-serialised JSON text frame (a Buffer can be shared between clients). */
  send(frame: string | Buffer): void;
  /** Sends a protocol message. */
  reply(message: ServerMessage): void;
  /**
   * Bytes waiting to be sent to the client, less what was sent it as it
   * connected (its snapshot and replay) and it has not yet had the time to
   * read: what counts against the slow-consumer cap.
   */
  queuedBytes(): number;
}

export class Connection implements WsClient {
  /** Pings sent since the peer was last heard from (a pong or a message). */
  unanswered = 0;
  open = true;
  subscription: Subscription;
  teardowns: (() => void)[] = [];
  /** What was queued as the client connected and has not been sent since: not held against it (see queuedBytes). */
  connectBytes = 0;
  /** Whether it has had what a client gets first (the listeners' snapshot, then a keepalive); not yet when it came before any listener (the run still starting). */
  greeted = false;

  constructor(
    readonly id: string,
    readonly socket: WebSocket,
    subscription: Subscription,
    private readonly closeTimeoutMs: number,
    private readonly maxQueuedBytes: number,
    private readonly onSlow: () => void,
  ) {
    this.subscription = subscription;
  }

  wants(kind: EventKind): boolean {
    return this.open && (this.subscription === 'all' || this.subscription.has(kind));
  }

  send(frame: string | Buffer): void {
    if (this.open) this.socket.send(frame, { binary: false });
  }

  reply(message: ServerMessage): void {
    this.sendChecked(JSON.stringify(message));
  }

  /**
   * Sends a protocol message unless more than `maxQueuedBytes` already wait to
   * be sent: then the client is not reading, and is dropped with 4008, so a
   * client that sends without reading cannot grow the server's memory.
   */
  sendChecked(frame: string): void {
    const queued = this.queuedBytes();
    if (this.open && queued > this.maxQueuedBytes) {
      this.onSlow();
      return this.close(CLOSE_SLOW_CONSUMER, slowConsumerReason(queued, this.maxQueuedBytes));
    }
    this.send(frame);
  }

  queuedBytes(): number {
    const buffered = this.socket.bufferedAmount;
    this.connectBytes = Math.min(this.connectBytes, buffered);
    return buffered - this.connectBytes;
  }

  /** Closes with `code` and `reason`; destroys the socket if the close frame cannot get out in time. */
  close(code: number, reason: string): void {
    if (!this.open) return;
    this.open = false;
    this.socket.close(code, reason);
    setTimeout(() => this.socket.terminate(), this.closeTimeoutMs).unref();
  }
}
