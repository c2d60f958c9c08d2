/**
 * The URL an HTTP request asks for, read from its request target against the
 * server's own origin. A target that is no URL (`GET http://[ HTTP/1.1`,
 * which Node's parser lets through) is null, for a 400 naming it: `new URL`
 * would throw, and thrown from a request handler it takes the process down.
 */
import type { IncomingMessage } from 'node:http';

/** The request's URL, or null when its target cannot be read as one. */
export function requestTarget(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

/** The 400 text for a request whose target is no URL. */
export function badTarget(req: IncomingMessage): string {
  return `bad request target ${JSON.stringify(req.url)}: not a URL path`;
}
