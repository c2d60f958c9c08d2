/**
 * Reading a file named on the command line (`--kg`, `--config`,
 * `--token-file`) without blocking the event loop. A named pipe (`mkfifo`,
 * or the shell's `<(cmd)`, a /dev/fd/N pipe) is opened without waiting for a
 * writer (O_NONBLOCK) and read as Node reads a piped stdin, through the event
 * loop: a blocking open waits for a writer on the main thread (SIGINT and
 * SIGTERM unhandled meanwhile) or on a thread of the pool, where the open, or
 * a read waiting for data, keeps the process alive after the run has ended.
 * Any other file is read by `createReadStream`.
 */
import { constants, createReadStream, openSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';

/**
 * A readable stream of `file`'s bytes. A file that cannot be opened gives the
 * stream's 'error' (as `createReadStream` does), not a throw; destroying the
 * stream closes the file, a pipe waiting for its writer included.
 */
export function openReadable(file: string): Readable {
  if (!isPipe(file)) return createReadStream(file);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    // Emitted on the next tick: the caller's listener is there by then.
    return new Readable({ read() {} }).destroy(error as Error);
  }
  return new Socket({ fd, readable: true, writable: false });
}

/** The whole of `file` as UTF-8 text, read through {@link openReadable}; rejects with the error opening or reading it. */
export async function readText(file: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of openReadable(file)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether `file` is a pipe; false for what cannot be looked at (opening it says why). */
function isPipe(file: string): boolean {
  try {
    return statSync(file).isFIFO();
  } catch {
    return false;
  }
}
