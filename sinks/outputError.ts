/**
 * OutputError: stdout could not be written for a reason other than its
 * reader going away (a full disk, an I/O error): the output is incomplete,
 * so the command fails saying so instead of ending as if it had printed
 * everything.
 */
export class OutputError extends Error {
  override name = 'OutputError';
  constructor(cause: Error) {
    super(`cannot write stdout (${cause.message}): the output stops there, incomplete`);
  }
}

/** Errors that mean the reader went away (`ooda … | head`): the end of the output, not a failure. */
const READER_GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

/** Whether a write error only says that the reader has gone. */
export function readerGone(error: Error): boolean {
  return READER_GONE.has((error as Error & { code?: string }).code ?? '');
}
