/**
 * toNdjson: writes each event as one JSON line. Lines are batched into one
 * write per burst (or per 64 KiB) and flushed on completion. A closed pipe
 * (`ooda run | head`) ends quietly: writing stops and `onClosed` is called once.
 *
 * Options: onClosed (called when the destination goes away), highWaterBytes (64 KiB).
 */
import type { Writable } from 'node:stream';
import type { Observer } from 'rxjs';

export interface NdjsonSinkOptions {
  onClosed?: (error: Error) => void;
  highWaterBytes?: number;
}

export interface NdjsonSink extends Observer<unknown> {
  /** Resolves once everything written so far has been handed to the destination. */
  flushed(): Promise<void>;
}

export function toNdjson(writable: Writable, options: NdjsonSinkOptions = {}): NdjsonSink {
  const highWater = options.highWaterBytes ?? 64 * 1024;
  let buffer = '';
  let closed = false;
  let flushScheduled = false;
  let lastWrite: Promise<void> = Promise.resolve();

  const close = (error: Error): void => {
    if (closed) return;
    closed = true;
    buffer = '';
    options.onClosed?.(error);
  };
  writable.on('error', close);

  const flush = (): void => {
    flushScheduled = false;
    if (closed || buffer.length === 0) return;
    const chunk = buffer;
    buffer = '';
    lastWrite = new Promise((resolve) => {
      try {
        writable.write(chunk, () => resolve());
      } catch (error) {
        close(error as Error);
        resolve();
      }
    });
  };

  return {
    next(event) {
      if (closed) return;
      buffer += `${JSON.stringify(event)}\n`;
      if (buffer.length >= highWater) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
    error(error) {
      flush();
      process.stderr.write(`ooda: event stream failed: ${error instanceof Error ? error.message : String(error)}\n`);
    },
    complete() {
      flush();
    },
    flushed: () => {
      flush();
      return lastWrite;
    },
  };
}
