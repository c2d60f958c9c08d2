/**
 * toWebSocket's options and the checks made on them before the sink serves
 * anyone: a bad one throws a RangeError (TypeError for the wrong kind) naming
 * it, e.g. `toWebSocket maxQueuedBytes: expected a whole number of bytes ≥ 1,
 * got NaN`. A cap that is not a number would compare false with every queue,
 * so a client that never reads would grow the server's memory without bound.
 */
import { checkNumberOption, checkTypeOption, wholeNumber } from '../mind/optionCheck.js';
import type { Snapshot } from '../streams/wsProtocol.js';

/** What `toWebSocket` takes; every option has a default. */
export interface WebSocketSinkOptions {
  /** Bytes a client may have queued (socket buffer plus unsent batch) before it is dropped with 4008 (default: the server's maxQueuedBytes, 4 MiB unless set). */
  maxQueuedBytes?: number;
  /** Events a client that connects gets at once, after the snapshot (default 100; 0: none). */
  replay?: number;
  /** A batch reaching this many bytes is sent at once instead of at the end of the burst (default 256 KiB). */
  maxFrameBytes?: number;
  /** The snapshot a client gets first as it connects (default: none). */
  snapshot?: () => Snapshot;
}

/** Throws naming the first option of the wrong kind or out of range. */
export function checkSinkOptions(options: WebSocketSinkOptions): void {
  const { maxQueuedBytes, replay, maxFrameBytes, snapshot } = options as Record<keyof WebSocketSinkOptions, unknown>;
  checkNumberOption('toWebSocket', 'maxQueuedBytes', maxQueuedBytes, wholeNumber(1), 'a whole number of bytes ≥ 1');
  checkNumberOption('toWebSocket', 'replay', replay, wholeNumber(0), 'a whole number of events ≥ 0');
  checkNumberOption('toWebSocket', 'maxFrameBytes', maxFrameBytes, wholeNumber(1), 'a whole number of bytes ≥ 1');
  checkTypeOption('toWebSocket', 'snapshot', snapshot, 'function');
}
