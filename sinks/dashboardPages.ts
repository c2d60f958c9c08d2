/**
 * The dashboard's pages: its static files (index.html, style.css, and the
 * page's script: app.js and the modules it imports) served with a strict
 * content-security policy; 403 for a refused request, 400 for a request
 * target that is no URL, 426 for a plain GET of the WebSocket endpoint, 405
 * for other methods, 404 for anything else.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { badTarget, requestTarget } from './requestTarget.js';

const PAGES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/agentClock.js': { file: 'agentClock.js', type: 'text/javascript; charset=utf-8' },
  '/alertText.js': { file: 'alertText.js', type: 'text/javascript; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/breakdown.js': { file: 'breakdown.js', type: 'text/javascript; charset=utf-8' },
  '/connection.js': { file: 'connection.js', type: 'text/javascript; charset=utf-8' },
  '/dom.js': { file: 'dom.js', type: 'text/javascript; charset=utf-8' },
  '/entryFade.js': { file: 'entryFade.js', type: 'text/javascript; charset=utf-8' },
  '/goalKeys.js': { file: 'goalKeys.js', type: 'text/javascript; charset=utf-8' },
  '/goalTree.js': { file: 'goalTree.js', type: 'text/javascript; charset=utf-8' },
  '/plans.js': { file: 'plans.js', type: 'text/javascript; charset=utf-8' },
  '/questions.js': { file: 'questions.js', type: 'text/javascript; charset=utf-8' },
  '/reflection.js': { file: 'reflection.js', type: 'text/javascript; charset=utf-8' },
  '/render.js': { file: 'render.js', type: 'text/javascript; charset=utf-8' },
  '/state.js': { file: 'state.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/** Answers one HTTP request from `dashboardDir`; `refusal` (from the loopback guard) answers 403. */
export async function serveDashboard(req: IncomingMessage, res: ServerResponse, dashboardDir: string, refusal: string | null): Promise<void> {
  const fail = (status: number, text: string): void => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
  };
  if (refusal) return fail(403, refusal);
  const url = requestTarget(req);
  if (!url) return fail(400, badTarget(req));
  const path = url.pathname;
  const entry = PAGES[path];
  if (path === '/ws') return fail(426, 'this is the WebSocket endpoint: connect with a WebSocket client');
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, `${req.method} is not allowed`);
  if (!entry) return fail(404, `no such page: ${path}`);
  try {
    const body = await readFile(join(dashboardDir, entry.file));
    res.writeHead(200, {
      'content-type': entry.type,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (error) {
    fail(500, `cannot read ${entry.file}: ${(error as Error).message}`);
  }
}
