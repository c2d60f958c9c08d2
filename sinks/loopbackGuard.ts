/**
 * The loopback guard: on a server bound to a loopback address, a request must
 * name a loopback Host (no DNS rebinding), and a browser's Origin must be the
 * server's own, so that another web page cannot read the agent's events.
 */
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Why the request must be refused, or null (always null when `boundHost` is not loopback). */
export function loopbackRefusal(req: IncomingMessage, boundHost: string): string | null {
  if (!LOOPBACK_NAMES.has(boundHost)) return null;
  const host = req.headers.host ?? '';
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  if (!LOOPBACK_NAMES.has(hostname)) return `Host ${JSON.stringify(host)} is not a loopback name`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return `Origin ${JSON.stringify(origin)} is not this server`;
  return null;
}
