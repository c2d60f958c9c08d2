/**
 * toLines: the one writer behind every sink and command that prints lines to
 * a stream (stdout). Each value becomes a line through `format` (null: no
 * line); lines are batched into one write per burst (or per 64 KiB) and
 * flushed on completion. A closed destination (`ooda … | head`, EPIPE) ends
 * quietly: writing stops, nothing is thrown and `onClosed` is called once.
 *
 * Options: onClosed (called when the destination goes away), highWaterBytes (64 KiB).
 */
import type { Writable } from 'node:stream';
import type { Observer } from 'rxjs';
import { streamFailure } from './streamFailure.js';

export interface LineSinkOptions {
  onClosed?: (error: Error) => void;
  highWaterBytes?: number;
}

export interface LineSink<T> extends Observer<T> {
  /** Resolves once everything written so far has been handed to the destination (or it has closed). */
  flushed(): Promise<void>;
  /** True once the destination has gone away. */
  readonly closed: boolean;
}

export function toLines<T>(writable: Writable, format: (value: T) => string | null, options: LineSinkOptions = {}): LineSink<T> {
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
    get closed() {
      return closed;
    },
    next(value) {
      if (closed) return;
      const line = format(value);
      if (line === null) return;
      buffer += `${line}\n`;
      if (buffer.length >= highWater) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
    error(error) {
      flush();
      process.stderr.write(`ooda: ${streamFailure(error)}\n`);
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
