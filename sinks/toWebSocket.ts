/**
 * toWebSocket: publishes every event to every subscribed client of a
 * {@link WsServer}. Each event is serialised once; each client gets the
 * events of the kinds it subscribed to (all by default). Events that arrive
 * in the same burst go out together as one array frame per client, flushed
 * on the next turn of the event loop (or as soon as a batch reaches
 * `maxFrameBytes`); a lone event goes out as a plain object.
 *
 * A client that connects late first receives a snapshot (`snapshot()`, when
 * given, stamped with the `seq` of the last event published so far) and then
 * the last `replay` events as one array frame, preceded by the alerts, plans,
 * questions and reflection from before them that the dashboard shows
 * (replayHistory.ts). A `snapshot()` that throws
 * gets the client an `error` message instead (`snapshot failed: …`).
 *
 * Slow consumers: before an event is queued for a client, its queued bytes
 * ({@link WsClient.queuedBytes}: the socket's `bufferedAmount`, less a
 * snapshot not yet read, plus the batch not yet sent) are checked; past
 * `maxQueuedBytes` the client is dropped with close code 4008 and a reason
 * naming the figures. Other clients are unaffected, and the server's memory per
 * client stays under the cap plus its snapshot and one event.
 *
 *   events:  --a-b-c----d--|
 *   client:  ----[a,b,c]-d--     (one frame per burst; 1001 when the server closes)
 *
 * Options: maxQueuedBytes (the server's, 4 MiB by default), replay (100), maxFrameBytes (256 KiB), snapshot (none); a bad one throws, naming it.
 */
import type { Observer } from 'rxjs';
import type { AgentEvent } from '../streams/events.js';
import { CLOSE_SLOW_CONSUMER, slowConsumerReason, type Snapshot } from '../streams/wsProtocol.js';
import { eventJson } from './eventJson.js';
import { ReplayHistory, type Serialised } from './replayHistory.js';
import type { WsClient, WsServer } from './wsServer.js';
import { streamFailure } from './streamFailure.js';
import { checkSinkOptions, type WebSocketSinkOptions } from './webSocketSinkOptions.js';

export { DEFAULT_MAX_QUEUED_BYTES } from './wsServer.js';
export type { WebSocketSinkOptions } from './webSocketSinkOptions.js';

export interface WebSocketSink extends Observer<AgentEvent> {
  /** Clients served now, events published, frames sent, slow clients dropped. */
  stats(): { clients: number; events: number; frames: number; dropped: number };
}

interface Outbox {
  items: Serialised[];
  bytes: number;
}

export function toWebSocket(server: WsServer, options: WebSocketSinkOptions = {}): WebSocketSink {
  checkSinkOptions(options);
  const cap = options.maxQueuedBytes ?? server.maxQueuedBytes;
  const history = new ReplayHistory(options.replay ?? 100);
  const maxFrameBytes = options.maxFrameBytes ?? 256 * 1024;
  const outboxes = new Map<WsClient, Outbox>();
  const dirty = new Set<WsClient>();
  let flushScheduled = false;
  let events = 0;
  let frames = 0;
  let dropped = 0;
  let lastSeq: number | undefined;

  /**
   * Sends a client its batch, less the kinds it unsubscribed from since they
   * were queued (its ack has gone out already); `shared` lets clients with
   * the same batch share one encoded Buffer.
   */
  const flush = (client: WsClient, outbox: Outbox, shared?: Map<string, Buffer>): void => {
    dirty.delete(client);
    // Built as one string rather than through filtered and mapped arrays: this runs per client per burst.
    let text = '';
    let count = 0;
    for (const item of outbox.items) {
      if (!client.wants(item.kind)) continue;
      text = count++ === 0 ? item.text : `${text},${item.text}`;
    }
    outbox.items = [];
    outbox.bytes = 0;
    if (count === 0) return;
    if (count > 1) text = `[${text}]`;
    let frame = shared?.get(text);
    if (shared && !frame) shared.set(text, (frame = Buffer.from(text)));
    client.send(frame ?? text);
    frames++;
  };
  const flushAll = (): void => {
    flushScheduled = false;
    const shared = new Map<string, Buffer>();
    for (const client of [...dirty]) {
      const outbox = outboxes.get(client);
      if (outbox) flush(client, outbox, shared);
      else dirty.delete(client);
    }
  };

  server.onConnection((client) => {
    if (options.snapshot) sendSnapshot(client, options.snapshot, lastSeq);
    const missed = history.forClient((kind) => client.wants(kind));
    if (missed.length > 0) {
      client.send(`[${missed.join(',')}]`);
      frames++;
    }
    outboxes.set(client, { items: [], bytes: 0 });
    return () => {
      outboxes.delete(client);
      dirty.delete(client);
    };
  });

  return {
    next(event) {
      events++;
      lastSeq = event.seq;
      const text = eventJson(event);
      const item: Serialised = { kind: event.kind, seq: event.seq, text, bytes: Buffer.byteLength(text) };
      history.add(event, item);
      for (const [client, outbox] of outboxes) {
        if (!client.wants(item.kind)) continue;
        const queued = client.queuedBytes() + outbox.bytes + item.bytes;
        if (queued > cap) {
          dropped++;
          outboxes.delete(client);
          dirty.delete(client);
          server.drop(client, CLOSE_SLOW_CONSUMER, slowConsumerReason(queued, cap));
          continue;
        }
        outbox.items.push(item);
        outbox.bytes += item.bytes;
        if (outbox.bytes >= maxFrameBytes) flush(client, outbox);
        else dirty.add(client);
      }
      if (dirty.size > 0 && !flushScheduled) {
        flushScheduled = true;
        setImmediate(flushAll);
      }
    },
    error(error) {
      flushAll();
      process.stderr.write(`ooda: ${streamFailure(error)}\n`);
    },
    complete() {
      flushAll();
    },
    stats: () => ({ clients: outboxes.size, events, frames, dropped }),
  };
}

/** Sends a client the snapshot; one that throws is an error reply to that client (the events follow without it), never an exception in the server. */
function sendSnapshot(client: WsClient, snapshot: () => Snapshot, lastSeq: number | undefined): void {
  let message: Snapshot;
  try {
    message = snapshot();
  } catch (error) {
    client.reply({ type: 'error', error: `snapshot failed: ${error instanceof Error ? error.message : String(error)}; the events follow without it` });
    return;
  }
  client.reply(lastSeq === undefined ? message : { ...message, seq: lastSeq });
}
