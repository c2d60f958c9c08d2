/**
 * The request guard, run on every HTTP request and WebSocket upgrade, so that
 * a web page the user visits cannot read the agent's events through their
 * browser:
 * - the `Host` must be a name that cannot be a DNS-rebinding site's: on a
 *   server bound to a loopback address, a loopback name; on any other
 *   address, an IP address or a loopback name. Names the server is reached
 *   by besides (a LAN name, a proxy that keeps `Host`) are allowed with
 *   `hosts` (`'*'`: any Host);
 * - on any address, a browser's `Origin` must be the server's own (`http://`
 *   or `https://` and the request's `Host`, as seen through a TLS-terminating
 *   proxy that keeps `Host`) or one of the `origins` allowed besides (`'*'`:
 *   any). Clients that are not browsers send no `Origin` and pass.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether the server bound to `host` listens on loopback only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host);
}

/** Why the request must be refused, or null. */
export function requestRefusal(req: IncomingMessage, boundHost: string, origins: readonly string[], hosts: readonly string[] = []): string | null {
  const host = req.headers.host ?? '';
  const refusedHost = hostRefusal(host, isLoopback(boundHost), hosts);
  if (refusedHost) return refusedHost;
  const origin = req.headers.origin;
  if (origin === undefined || origin === `http://${host}` || origin === `https://${host}` || origins.includes(origin) || origins.includes('*')) return null;
  return `Origin ${JSON.stringify(origin)} is not this server${origins.length ? ` nor an allowed origin (${origins.join(', ')})` : ' (allow it with the origins option, --origin)'}`;
}

/** Why a request's `Host` header must be refused, or null. */
function hostRefusal(host: string, loopbackServer: boolean, hosts: readonly string[]): string | null {
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!).toLowerCase();
  if (LOOPBACK_NAMES.has(name) || hosts.includes('*') || hosts.some((allowed) => allowed.toLowerCase() === name)) return null;
  if (!loopbackServer && isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0) return null;
  const what = loopbackServer ? 'a loopback name' : 'an IP address nor a loopback name';
  const allowed = hosts.length ? ` nor an allowed host (${hosts.join(', ')})` : ` (allow it with the hosts option, --allow-host${name ? ` ${name}` : ''})`;
  return `Host ${JSON.stringify(host)} is not ${what}${allowed}`;
}

/**
 * Why `host` cannot be allowed, or null: it must be `*` or a host name as a
 * `Host` header carries it, without scheme or port (`agent.lan`).
 */
export function hostProblem(host: string): string | null {
  if (host === '*' || /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(host)) return null;
  return `expected a host name such as agent.lan (no scheme, port or path) or *, got ${JSON.stringify(host)}`;
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
