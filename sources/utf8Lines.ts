/**
 * Utf8Lines: which lines of a byte stream are not valid UTF-8. A decoder
 * turns such bytes into U+FFFD without a word, so a line with a stray Latin-1
 * byte would be taken in altered; fromNdjson asks this which lines to reject
 * instead. Chunks may split a character: its first bytes wait for the next
 * chunk. A chunk that is valid as a whole (the usual case) costs one
 * `isUtf8` check; only an invalid one is split into its lines.
 *
 *   write(<"ok\nb\xffd\n">, 0) marks line 2;   isBad(2) → true
 */
import { isUtf8 } from 'node:buffer';

const NEWLINE = 0x0a;

export class Utf8Lines {
  /** The first bytes of a character the previous chunk ended in. */
  private carry: Buffer | undefined;
  private readonly bad = new Set<number>();

  /** Checks a chunk whose first byte belongs to line `linesBefore + 1` (the lines before it end in earlier chunks). */
  write(chunk: Buffer, linesBefore: number): void {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = bytes.length - incompleteTail(bytes);
    this.carry = end < bytes.length ? bytes.subarray(end) : undefined;
    const body = end < bytes.length ? bytes.subarray(0, end) : bytes;
    if (isUtf8(body)) return;
    let line = linesBefore + 1;
    for (let start = 0; start <= body.length; line++) {
      const newline = body.indexOf(NEWLINE, start);
      const stop = newline === -1 ? body.length : newline;
      if (!isUtf8(body.subarray(start, stop))) this.bad.add(line);
      if (newline === -1) break;
      start = newline + 1;
    }
  }

  /** At the end of the stream: a character left unfinished makes the last line (`linesBefore + 1`) invalid. */
  end(linesBefore: number): void {
    if (this.carry) this.bad.add(linesBefore + 1);
    this.carry = undefined;
  }

  /** Whether line `line` held bytes that are not UTF-8 (asked once per line: the mark is dropped). */
  isBad(line: number): boolean {
    return this.bad.size > 0 && this.bad.delete(line);
  }
}

/** How many bytes at the end of `bytes` start a character that is not complete yet (0–3). */
function incompleteTail(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 3; i--) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return 0;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return bytes.length - i < length ? bytes.length - i : 0;
  }
  return 0;
}
