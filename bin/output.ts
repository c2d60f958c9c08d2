/**
 * printLines: how a command prints its result to stdout, through the same
 * line writer as the event sinks, so a closed pipe (`ooda sessions | head -1`)
 * ends the command quietly instead of crashing on EPIPE; any other write
 * error (a full disk) fails it with an OutputError.
 */
import { toLines } from '../streams/index.js';

/** Writes each line to stdout and resolves once they are handed over (or stdout has closed); rejects when stdout could not be written. */
export async function printLines(lines: Iterable<string>): Promise<void> {
  const out = toLines<string>(process.stdout, (line) => line);
  for (const line of lines) {
    if (out.closed) break;
    out.next(line);
  }
  await out.flushed();
  if (out.failure) throw out.failure;
}
