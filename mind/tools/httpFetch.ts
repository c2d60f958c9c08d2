/**
 * http_fetch (semantic, cautious): GET a URL on an allowed host. Only hosts in
 * `tools.httpAllowHosts` (`host` or `host:port`) are contacted; anything else
 * is refused before any connection. Redirects are not followed (the response
 * reports where they point). The body is read up to `tools.httpMaxBytes`
 * (1 MiB; beyond that it is cut and marked truncated) within
 * `tools.httpTimeoutMs` (5 s) of the runtime's scheduler time
 * (`ToolContext.timeout`); the request is also aborted when act gives up on
 * the run (`toolTimeoutMs`, the run stopping). A text body joins
 * the library and is the content goals are checked against. The request is
 * a recorded effect (`ctx.effect`): a replay gets the response the run got
 * and sends nothing.
 */
import { z } from 'zod';
import { url as urlIn } from '../goalText.js';
import { ToolFailure, type Tool } from '../tool.js';

const Input = z.object({
  url: z.string().min(1, 'url is required'),
});

/**
 * Whether the URL's host is on the allowlist (`host:port` entries must match
 * the port too, written or not: `example.com:443` allows `https://example.com/`,
 * whose URL leaves the default port out).
 */
export function hostAllowed(url: URL, allow: readonly string[]): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const forms = [url.hostname, `${url.hostname}:${port}`].map((form) => form.toLowerCase());
  return allow.some((entry) => forms.includes(entry.toLowerCase()));
}

/**
 * The URL text with the credentials of its authority (`user:password@`)
 * replaced by `***@`, for messages: they are recorded and shown. Works on
 * text that is not a valid URL too (the userinfo ends at the last `@` before
 * the path, query or fragment), and on a scheme-relative one (`//user@host/`,
 * as a redirect's Location may be).
 */
export function withoutCredentials(url: string): string {
  return url.replace(/(^\s*[\\/]{2}|[a-z][a-z0-9+.-]*:[\\/]*)[^/?#\\]*@/i, '$1***@');
}

export const httpFetch: Tool<z.infer<typeof Input>> = {
  name: 'http_fetch',
  description: 'GET a web page or API on an allowed host (timeout, size cap, no redirects followed).',
  keywords: [
    'http', 'https', 'web', 'url', 'fetch', 'download', 'page', 'website', 'api', 'online', 'internet', 'get',
    'request', 'endpoint', 'remote', 'server', 'html', 'json', 'link',
  ],
  danger: 'cautious',
  capabilities: ['net.http'],
  input: Input,
  scoring: { kind: 'semantic', threshold: 0.55, multiplier: 0.75 },
  propose({ goal }) {
    return { url: urlIn(goal) ?? '' };
  },
  async execute({ url: raw }, { mind, config, now, timeout, effect }) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ToolFailure('http_fetch', `invalid input: url: "${withoutCredentials(raw)}" is not a URL`);
    }
    if (url.username || url.password) throw new ToolFailure('http_fetch', `refused ${withoutCredentials(url.href)}: a URL with credentials (user:password@) is not fetched`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolFailure('http_fetch', `refused ${url.href}: only http and https are allowed`);
    if (!hostAllowed(url, config.tools.httpAllowHosts)) {
      throw new ToolFailure('http_fetch', `refused ${url.host}: not in tools.httpAllowHosts (${config.tools.httpAllowHosts.join(', ') || 'empty'})`);
    }
    const { httpTimeoutMs: timeoutMs, httpMaxBytes: maxBytes } = config.tools;
    let got: Got;
    try {
      got = await effect(`GET ${url.href}`, () => get(url, maxBytes, timeoutMs, timeout(timeoutMs)));
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      const why = error instanceof Error && error.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : (error as Error).message;
      throw new ToolFailure('http_fetch', `GET ${url.href} failed: ${why}`, { cause: error });
    }
    const { status, contentType: type, text, bytes, truncated } = got;
    if (status >= 300 && status < 400) {
      return { ok: false, summary: `GET ${url.href} → ${status} redirect to ${got.location ?? '?'} (not followed)`, data: { status } };
    }
    const ok = status >= 200 && status < 300;
    if (ok && /^text\/|json|xml/.test(type) && text.trim()) mind.library.add({ id: mind.id('doc'), source: url.href, text, at: now() });
    return {
      ok,
      summary: `GET ${url.href} → ${status} (${bytes} byte(s) of ${type}${truncated ? `, cut at ${maxBytes}` : ''})`,
      ...(ok ? { content: text } : {}),
      data: { status, contentType: type, bytes, truncated },
    };
  },
};

/** What a GET gave: its status, where a redirect pointed, and its body's text (cut at the byte cap). */
interface Got {
  status: number;
  location?: string;
  contentType: string;
  text: string;
  bytes: number;
  truncated: boolean;
}

/** The GET itself (the tool's recorded effect): a redirect is not followed, and its body is not read. */
async function get(url: URL, maxBytes: number, timeoutMs: number, signal: AbortSignal): Promise<Got> {
  const response = await fetch(url, { method: 'GET', redirect: 'manual', signal });
  const contentType = response.headers.get('content-type') ?? 'unknown';
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get('location');
    // Recorded (the effects table) and shown: its credentials are not.
    return { status: response.status, ...(location === null ? {} : { location: withoutCredentials(location) }), contentType, text: '', bytes: 0, truncated: false };
  }
  return { status: response.status, contentType, ...(await readCapped(response, maxBytes, timeoutMs)) };
}

async function readCapped(response: Response, maxBytes: number, timeoutMs: number): Promise<{ text: string; bytes: number; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { text: '', bytes: 0, truncated: false };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - bytes;
      if (value.byteLength > room) {
        chunks.push(value.subarray(0, room));
        bytes += room;
        truncated = true;
        await reader.cancel();
        break;
      }
      chunks.push(value);
      bytes += value.byteLength;
    }
  } catch (error) {
    throw new ToolFailure('http_fetch', `reading the body failed (limit ${timeoutMs} ms): ${(error as Error).message}`, { cause: error });
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes, truncated };
}
