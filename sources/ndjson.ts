/**
 * fromNdjson: a readable byte stream → one stimulus per line, with its 1-based
 * line number. Handles CRLF, skips blank lines (they still count), emits a last
 * line that has no newline, strips a UTF-8 byte-order mark at the very start
 * of the stream (not elsewhere), and rejects a line longer than `maxLineBytes`
 * without buffering it whole: its bytes are dropped as they arrive and one
 * stimulus with a `problem` stands for it. A read error ends the stream with a
 * final problem stimulus rather than an error.
 *
 *   bytes:         --"a\nb"--"c\n\nd"--|
 *   fromNdjson():  --a-------b----------(d|)   (a: line 1 "a", b: line 2 "bc", line 3 is blank, d: line 4 "d")
 *
 * Options: maxLineBytes (1 MiB), source ('stdin').
 */
import type { Readable } from 'node:stream';
import { Observable } from 'rxjs';
import type { Stimulus } from '../streams/signals.js';

export interface NdjsonOptions {
  maxLineBytes?: number;
  source?: string;
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

export function fromNdjson(readable: Readable, options: NdjsonOptions = {}): Observable<Stimulus> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const source = options.source ?? 'stdin';
  return new Observable<Stimulus>((subscriber) => {
    let line = 0;
    let pieces: Buffer[] = [];
    let pieceBytes = 0;
    let oversized = false;

    const emitLine = (buffer: Buffer, start: number, end: number): void => {
      line++;
      if (oversized) {
        oversized = false;
        pieces = [];
        pieceBytes = 0;
        subscriber.next({ source, line, problem: `line ${line} is longer than ${maxLineBytes} bytes` });
        return;
      }
      let text: string;
      if (pieces.length > 0) {
        pieces.push(buffer.subarray(start, end));
        text = Buffer.concat(pieces).toString('utf8');
        pieces = [];
        pieceBytes = 0;
      } else {
        text = buffer.toString('utf8', start, end);
      }
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (line === 1 && text.charCodeAt(0) === BOM) text = text.slice(1);
      if (text.length > maxLineBytes && Buffer.byteLength(text) > maxLineBytes) {
        subscriber.next({ source, line, problem: `line ${line} is longer than ${maxLineBytes} bytes` });
        return;
      }
      if (isBlank(text)) return;
      subscriber.next({ source, line, text });
    };

    const keepPartial = (buffer: Buffer, start: number): void => {
      if (start >= buffer.length || oversized) return;
      const rest = buffer.length - start;
      if (pieceBytes + rest > maxLineBytes + 1) {
        oversized = true;
        pieces = [];
        pieceBytes = 0;
        return;
      }
      pieces.push(buffer.subarray(start));
      pieceBytes += rest;
    };

    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let start = 0;
      let newline = buffer.indexOf(10, start);
      while (newline !== -1) {
        if (!oversized && pieceBytes + (newline - start) > maxLineBytes + 1) oversized = true;
        emitLine(buffer, start, newline);
        if (subscriber.closed) return;
        start = newline + 1;
        newline = buffer.indexOf(10, start);
      }
      keepPartial(buffer, start);
    };
    const onEnd = (): void => {
      if (pieces.length > 0 || oversized) emitLine(Buffer.alloc(0), 0, 0);
      subscriber.complete();
    };
    const onError = (error: Error): void => {
      subscriber.next({ source, line: line + 1, problem: `read error: ${error.message}` });
      subscriber.complete();
    };

    readable.on('data', onData);
    readable.once('end', onEnd);
    readable.once('error', onError);
    return () => {
      readable.off('data', onData);
      readable.off('end', onEnd);
      readable.off('error', onError);
      readable.pause();
    };
  });
}

/** U+FEFF, the byte-order mark some editors put at the start of a UTF-8 file. */
const BOM = 0xfeff;

/** Whether a line holds only white space (without allocating a trimmed copy). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== BOM) return false;
  }
  return true;
}
