/**
 * toLines: the one writer behind every sink and command that prints lines to
 * a stream (stdout). Each value becomes a line through `format` (null: no
 * line); lines are batched into one write per burst (or per 64 KiB) and
 * flushed on completion. A closed destination (`ooda … | head`, EPIPE) ends
 * quietly: writing stops, nothing is thrown and `onClosed` is called once.
 * Any other write error (a full disk) stops writing too, calls `onClosed`,
 * and is kept as `failure`, for the command to fail with.
 *
 * Backpressure: a destination slower than the lines (a reader that reads
 * slowly or not at all) makes the stream buffer them in memory. Once it holds
 * `maxBufferedBytes`, `saturated$` emits true, and false once it has drained
 * (or closed): a producer that holds meanwhile keeps memory bounded.
 *
 * Options: onClosed (called when the destination goes away), highWaterBytes (64 KiB),
 * maxBufferedBytes (8 MiB).
 */
import type { Writable } from 'node:stream';
import { Subject, type Observable, type Observer } from 'rxjs';
import { OutputError, readerGone } from './outputError.js';
import { streamFailure } from './streamFailure.js';

export interface LineSinkOptions {
  onClosed?: (error: Error) => void;
  highWaterBytes?: number;
  /** Bytes the destination may hold unwritten before `saturated$` says so (default 8 MiB). */
  maxBufferedBytes?: number;
}

export interface LineSink<T> extends Observer<T> {
  /** Resolves once everything written so far has been handed to the destination (or it has closed). */
  flushed(): Promise<void>;
  /** True once the destination has gone away or failed. */
  readonly closed: boolean;
  /** Why writing failed, when the destination did not just close: the output is incomplete. */
  readonly failure: OutputError | undefined;
  /** Emits true when the destination holds `maxBufferedBytes` not yet written, false once it has drained or closed. */
  readonly saturated$: Observable<boolean>;
}

export function toLines<T>(writable: Writable, format: (value: T) => string | null, options: LineSinkOptions = {}): LineSink<T> {
  const highWater = options.highWaterBytes ?? 64 * 1024;
  const maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;
  const saturated$ = new Subject<boolean>();
  let saturated = false;
  const release = (): void => {
    if (!saturated) return;
    saturated = false;
    writable.off('drain', release);
    saturated$.next(false);
  };
  let buffer = '';
  let closed = false;
  let failure: OutputError | undefined;
  let flushScheduled = false;
  let lastWrite: Promise<void> = Promise.resolve();

  const close = (error: Error): void => {
    if (closed) return;
    closed = true;
    buffer = '';
    if (!readerGone(error)) failure = new OutputError(error);
    release();
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
        writable.write(chunk, (error?: Error | null) => {
          if (error) close(error);
          resolve();
        });
      } catch (error) {
        close(error as Error);
        resolve();
      }
    });
    // 'drain' comes once the destination has written everything it held.
    if (!closed && !saturated && writable.writableNeedDrain && writable.writableLength >= maxBuffered) {
      saturated = true;
      writable.on('drain', release);
      saturated$.next(true);
    }
  };

  return {
    get closed() {
      return closed;
    },
    get failure() {
      return failure;
    },
    saturated$: saturated$.asObservable(),
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
