/**
 * The live dashboard in a real headless Chromium, for the dashboard tests:
 * browsers (a few at once per test file), and a page open on a server with no
 * agent behind it, whose snapshot and events the test sets.
 */
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { Subject } from 'rxjs';
import { toWebSocket } from '../../sinks/toWebSocket.js';
import { WsServer, type WsServerOptions } from '../../sinks/wsServer.js';
import type { AgentEvent } from '../../streams/events.js';
import type { Snapshot } from '../../streams/wsProtocol.js';

/** The control token of every server and agent the dashboard tests start. */
export const TOKEN = 'dashboard-test-token';

/**
 * Browsers open at once in a test file. Each test launches its own, and ava
 * runs a file's tests together: two dozen Chromiums at once on two cores made
 * a CI run's waits time out (tests took 42 s each).
 */
const MAX_BROWSERS = 3;
let browsersOpen = 0;
const waitingForBrowser: (() => void)[] = [];

/** Headless Chromium on a fresh profile, closed (and its profile removed) after the test; waits for one of {@link MAX_BROWSERS} slots. */
export async function launch(t: ExecutionContext): Promise<BrowserContext> {
  // A slot a closing test frees is handed straight to the next waiter.
  if (browsersOpen < MAX_BROWSERS) browsersOpen++;
  else await new Promise<void>((resolve) => waitingForBrowser.push(resolve));
  // Registered first, so it runs last (teardowns run last in, first out): the slot frees once the browser has closed.
  t.teardown(() => {
    const next = waitingForBrowser.shift();
    if (next) next();
    else browsersOpen--;
  });
  const userDataDir = mkdtempSync(join(tmpdir(), 'ooda-chromium-'));
  t.teardown(() => rmSync(userDataDir, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1440, height: 900 },
  });
  t.teardown(() => context.close());
  return context;
}

/** The snapshot of an agent that has done nothing yet. */
export function emptySnapshot(session: string): Snapshot {
  return { type: 'snapshot', session, cycle: 0, paused: false, goals: [], memory: { size: 0, capacity: 100, pressure: 0, recent: [] }, decisions: [], episodes: 0, facts: 0 };
}

/**
 * A server with no agent behind it, and a page open on it (`hash` after its
 * URL); both closed after the test. Clients get `snapshot` (by default an
 * empty one of `session`) and then what the test publishes on `events$`.
 */
export async function pageOnQuietServer(
  t: ExecutionContext,
  options: Partial<WsServerOptions>,
  session: string,
  hash = '',
  snapshot: () => Snapshot = () => emptySnapshot(session),
): Promise<{ server: WsServer; page: Page; events$: Subject<AgentEvent> }> {
  const server = await WsServer.listen({ port: 0, token: TOKEN, ...options });
  t.teardown(() => server.close());
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server, { snapshot }));
  const browser = await launch(t);
  const page = await browser.newPage();
  await page.goto(`${server.url}${hash}`);
  return { server, page, events$ };
}

/**
 * The text of the first toast matching `selector` that holds `text`, read as
 * it appears: a toast leaves after 6 s, which a loaded machine can take to get
 * from seeing it to reading it.
 */
export async function toastText(page: Page, text: string, selector = '.toast'): Promise<string> {
  const found = await page.waitForFunction(
    ([selector, text]) => [...document.querySelectorAll(selector)].map((item) => item.textContent!).find((content) => content.includes(text)),
    [selector, text] as const,
    { timeout: 10_000 },
  );
  return (await found.jsonValue())!;
}
