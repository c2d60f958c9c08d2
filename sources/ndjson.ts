/**
 * fromNdjson: a readable byte stream → one stimulus per line, with its 1-based
 * line number. Handles CRLF, skips blank lines (they still count), emits a last
 * line that has no newline, strips a UTF-8 byte-order mark at the very start
 * of the stream (not elsewhere), and rejects a line longer than `maxLineBytes`
 * without buffering it whole: one stimulus with a `problem` stands for it,
 * emitted as soon as the line is known to be too long (not at its end, which
 * may never come), and its further bytes are dropped as they arrive. A line whose bytes are not valid
 * UTF-8 is rejected too (`line N is not valid UTF-8`), not taken in with
 * U+FFFD in place of its bytes. A read error ends the stream with a
 * final problem stimulus rather than an error.
 *
 *   bytes:         --"a\nb"--"c\n\nd"--|
 *   fromNdjson():  --a-------b----------(d|)   (a: line 1 "a", b: line 2 "bc", line 3 is blank, d: line 4 "d")
 *
 * Options: maxLineBytes (1 MiB), source ('stdin'); a bad one throws, naming it,
 * and so does a `readable` that is no stream (a file name).
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Observable } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { checkNumberOption, wholeNumber } from '../mind/optionCheck.js';
import type { Stimulus } from '../streams/signals.js';
import { Utf8Lines } from './utf8Lines.js';

export interface NdjsonOptions {
  maxLineBytes?: number;
  source?: string;
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

export function fromNdjson(readable: Readable, options: NdjsonOptions = {}): Observable<Stimulus> {
  // A file name instead of its stream would fail only when subscribed, as "readable.on is not a function".
  if (typeof (readable as Partial<Readable> | null)?.on !== 'function') {
    throw new TypeError(`fromNdjson: expected a readable stream (process.stdin, createReadStream(file)), got ${describeValue(readable)}`);
  }
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const source = options.source ?? 'stdin';
  // A limit that is not a number compares false with every length: lines of any size would be buffered whole.
  checkNumberOption('fromNdjson', 'maxLineBytes', maxLineBytes, wholeNumber(1), 'a whole number of bytes ≥ 1');
  if (typeof source !== 'string' || source.trim() === '') throw new TypeError(`fromNdjson source: expected a name for the input (stdin, a file), got ${describeValue(source)}`);
  // A line's UTF-16 length never exceeds its UTF-8 byte length, so a line whose
  // text grows past this many characters is oversized (the +1 allows its CR).
  const maxChars = maxLineBytes + 1;
  return new Observable<Stimulus>((subscriber) => {
    const decoder = new StringDecoder('utf8');
    const utf8 = new Utf8Lines();
    let line = 0;
    /** The start of the current line, carried over from earlier chunks, and its length in UTF-8 bytes. */
    let partial = '';
    let partialBytes = 0;
    let oversized = false;

    const tooLong = (at: number): void => {
      subscriber.next({ source, line: at, problem: `line ${at} is longer than ${maxLineBytes} bytes` });
    };

    const emitLine = (chunk: string, start: number, end: number): void => {
      line++;
      const invalid = utf8.isBad(line);
      // An oversized line was reported as it grew past the limit; its end only ends it.
      if (oversized) {
        oversized = false;
        return;
      }
      if (partial.length + (end - start) > maxChars) {
        partial = '';
        partialBytes = 0;
        return tooLong(line);
      }
      let text = partial ? partial + chunk.slice(start, end) : chunk.slice(start, end);
      partial = '';
      partialBytes = 0;
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (line === 1 && text.charCodeAt(0) === BOM) text = text.slice(1);
      if (text.length * 3 > maxLineBytes && Buffer.byteLength(text) > maxLineBytes) return tooLong(line);
      if (invalid) return void subscriber.next({ source, line, problem: `line ${line} is not valid UTF-8 (U+FFFD marks its bad bytes in the preview)`, text });
      if (isBlank(text)) return;
      subscriber.next({ source, line, text });
    };

    const keepPartial = (chunk: string, start: number): void => {
      if (start >= chunk.length || oversized) return;
      const rest = start === 0 ? chunk : chunk.slice(start);
      // Counted in bytes (the +1 allows a CR): a line of three-byte characters (CJK) passes the limit a third of the way to as many characters.
      // The BOM that starts the stream is stripped from its line (emitLine), so it does not count either.
      const strippedBom = line === 0 && partial === '' && rest.charCodeAt(0) === BOM ? BOM_BYTES : 0;
      const bytes = partialBytes + Buffer.byteLength(rest) - strippedBom;
      if (bytes > maxLineBytes + 1) {
        oversized = true;
        partial = '';
        partialBytes = 0;
        // Said now, not at its end: a line that never ends would never be reported.
        return tooLong(line + 1);
      }
      partial += rest;
      partialBytes = bytes;
    };

    const onText = (chunk: string): void => {
      let start = 0;
      let newline = chunk.indexOf('\n');
      while (newline !== -1) {
        emitLine(chunk, start, newline);
        if (subscriber.closed) return;
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      keepPartial(chunk, start);
    };
    const onData = (chunk: Buffer | string): void => {
      if (typeof chunk === 'string') return onText(chunk);
      utf8.write(chunk, line);
      onText(decoder.write(chunk));
    };
    const onEnd = (): void => {
      utf8.end(line);
      keepPartial(decoder.end(), 0);
      if (partial || oversized) emitLine('', 0, 0);
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
/** The UTF-8 bytes of a {@link BOM}. */
const BOM_BYTES = 3;

/** Whether a line holds only white space (without allocating a trimmed copy). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== BOM) return false;
  }
  return true;
}
