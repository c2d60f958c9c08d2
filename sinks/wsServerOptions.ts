/**
 * WsServer's options with their defaults, and the checks made on them before
 * anything listens: a bad one throws a RangeError (TypeError for the wrong
 * kind) naming it, e.g.
 * `WsServer keepaliveMs: expected 0 (none) or a number of ms up to
 * 2147483647, got 1000000000000`. Node would run a timer period it cannot
 * honour (over 2^31 - 1 ms, negative, NaN) every millisecond instead,
 * flooding every client with keepalives or pings.
 */
import { checkNumberOption, checkTypeOption, numberBetween, wholeNumber } from '../mind/optionCheck.js';
import { MAX_TIMER_MS } from '../streams/config.js';
import { hostProblem, originProblem } from './requestGuard.js';

/** What `WsServer.listen` takes; every option has a default. */
export interface WsServerOptions {
  /** Address to bind (default '127.0.0.1'; anything else exposes the agent). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** Control token clients need to send signals (default: generated, 32 hex digits). */
  token?: string;
  /** Largest inbound frame in bytes; a larger one closes that client with 1009 (default 64 KiB). */
  maxPayload?: number;
  /** Ping period; a peer that answered neither of the last two pings is dropped (default 15 000 ms). */
  pingIntervalMs?: number;
  /** Period of the `keepalive` message every client gets (default 5 000 ms; 0: none). */
  keepaliveMs?: number;
  /** Bytes that may wait to be sent to a client (answers, keepalives) before it is dropped with 4008 (default 4 MiB); `toWebSocket` takes it as its default cap for events. */
  maxQueuedBytes?: number;
  /** How long a dropped client gets to take its close frame before its socket is destroyed (default 2 000 ms). */
  closeTimeoutMs?: number;
  /** Folder of the dashboard's static files (default: the package's `dashboard/`). */
  dashboardDir?: string;
  /** Most clients connected at once; one more is refused with 503 (default 128). */
  maxClients?: number;
  /** Browser origins allowed to connect besides the server's own, e.g. `https://dash.example.com` (default none; `'*'`: any). */
  origins?: readonly string[];
  /** Host names the server is reached by besides IP addresses and loopback names, e.g. `agent.lan`; a request with another `Host` is refused, so a DNS-rebinding site cannot read the agent (default none; `'*'`: any). */
  hosts?: readonly string[];
}

/** Throws naming the first option of the wrong kind or out of range. */
export function checkServerOptions(options: WsServerOptions): void {
  const { host, port, token, maxPayload, maxQueuedBytes, pingIntervalMs, keepaliveMs, closeTimeoutMs, dashboardDir, maxClients, origins, hosts } = options as Record<keyof WsServerOptions, unknown>;
  const check = (name: string, value: unknown, ok: (value: number) => boolean, expected: string): void => checkNumberOption('WsServer', name, value, ok, expected);
  check('port', port, wholeNumber(0, 65535), 'a port number from 0 (any free port) to 65535');
  check('maxPayload', maxPayload, wholeNumber(1), 'a whole number of bytes ≥ 1');
  check('maxQueuedBytes', maxQueuedBytes, wholeNumber(1), 'a whole number of bytes ≥ 1');
  check('maxClients', maxClients, wholeNumber(1), 'a whole number of clients ≥ 1');
  check('pingIntervalMs', pingIntervalMs, (ms) => ms > 0 && ms <= MAX_TIMER_MS, `a number of ms above 0, up to ${MAX_TIMER_MS}`);
  check('keepaliveMs', keepaliveMs, numberBetween(0, MAX_TIMER_MS), `0 (none) or a number of ms up to ${MAX_TIMER_MS}`);
  check('closeTimeoutMs', closeTimeoutMs, numberBetween(0, MAX_TIMER_MS), `a number of ms from 0 to ${MAX_TIMER_MS}`);
  for (const [name, value] of [['host', host], ['token', token], ['dashboardDir', dashboardDir]] as const) checkTypeOption('WsServer', name, value, 'string');
  checkNameList('origins', origins, 'origin', originProblem);
  checkNameList('hosts', hosts, 'host name', hostProblem);
}

/** Throws unless `value` is undefined or an array of strings `problem` finds nothing wrong with. */
function checkNameList(name: string, value: unknown, what: string, problem: (item: string) => string | null): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new TypeError(`WsServer ${name}: expected an array of ${what}s, got ${JSON.stringify(value) ?? String(value)}`);
  for (const item of value as unknown[]) {
    const found = typeof item === 'string' ? problem(item) : `expected a string, got ${JSON.stringify(item) ?? String(item)}`;
    if (found) throw new RangeError(`WsServer ${name}: ${found}`);
  }
}
