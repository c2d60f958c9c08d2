/**
 * The request guard, run on every HTTP request and WebSocket upgrade, so that
 * a web page the user visits cannot read the agent's events through their
 * browser:
 * - on a server bound to a loopback address, the `Host` must be a loopback
 *   name (no DNS rebinding);
 * - on any address, a browser's `Origin` must be the server's own (`http://`
 *   or `https://` and the request's `Host`, as seen through a TLS-terminating
 *   proxy that keeps `Host`) or one of the `origins` allowed besides (`'*'`:
 *   any). Clients that are not browsers send no `Origin` and pass.
 */
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether the server bound to `host` listens on loopback only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host);
}

/** Why the request must be refused, or null. */
export function requestRefusal(req: IncomingMessage, boundHost: string, origins: readonly string[]): string | null {
  const host = req.headers.host ?? '';
  if (isLoopback(boundHost)) {
    const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
    if (!LOOPBACK_NAMES.has(hostname)) return `Host ${JSON.stringify(host)} is not a loopback name`;
  }
  const origin = req.headers.origin;
  if (origin === undefined || origin === `http://${host}` || origin === `https://${host}` || origins.includes(origin) || origins.includes('*')) return null;
  return `Origin ${JSON.stringify(origin)} is not this server${origins.length ? ` nor an allowed origin (${origins.join(', ')})` : ' (allow it with the origins option, --origin)'}`;
}

/**
 * Why `origin` cannot be allowed, or null: it must be `*` or an origin as a
 * browser sends it, scheme, host and port only (`https://example.com:8443`,
 * no path, no trailing slash), or it could never match.
 */
export function originProblem(origin: string): string | null {
  if (origin === '*') return null;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return `expected an origin such as https://example.com:8443 or *, got ${JSON.stringify(origin)}`;
  }
  if (parsed.origin !== origin) return `expected an origin as browsers send it (scheme://host[:port], no path or trailing slash): ${JSON.stringify(parsed.origin)}, got ${JSON.stringify(origin)}`;
  return null;
}
