import test, { type ExecutionContext } from 'ava';
import { Subject } from 'rxjs';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import type { AgentEvent } from '../streams/events.js';
import { emptySnapshot, launch, TOKEN } from './helpers/dashboardPage.js';

/** A server with no agent behind it on `port` (0: a free one), its page's snapshot an empty agent's; closed after the test. */
async function quietServer(t: ExecutionContext, port: number): Promise<WsServer> {
  const server = await WsServer.listen({ port, token: TOKEN, keepaliveMs: 1000 });
  t.teardown(() => server.close());
  new Subject<AgentEvent>().subscribe(toWebSocket(server, { snapshot: () => emptySnapshot('announced') }));
  return server;
}

test('in Chromium: a screen reader is told, politely, each change of the connection (connected, stale, disconnected, connected again), once each: not each second it is stale, nor each retry', async (t) => {
  const server = await quietServer(t, 0);
  const page = await (await launch(t)).newPage();
  // Each time the page changes the live region's text, what it reads then; and each status text shown (set up before the page's scripts run).
  await page.addInitScript(() => {
    const told: string[] = ((window as any).told = []);
    const shown: string[] = ((window as any).shown = []);
    new MutationObserver((mutations) => {
      const [region, status] = [document.getElementById('conn-announce'), document.getElementById('conn-text')];
      if (region && mutations.some((mutation) => region.contains(mutation.target))) told.push(region.textContent!);
      if (status && mutations.some((mutation) => status.contains(mutation.target))) shown.push(status.textContent!);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(server.url);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  const region = page.locator('#conn-announce');
  t.is(await region.getAttribute('aria-live'), 'polite');
  t.is(await region.getAttribute('role'), 'status');

  // Freeze this process (the server) for 4 s, as SIGSTOP would: stale after 2.5 keepalive intervals, its count going up each second.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });

  // The agent stops; the page retries (twice, at 0.5 s and 1 s) until an agent is back on the same port.
  const { port } = new URL(server.url);
  await server.close();
  await page.locator('#conn-text', { hasText: 'retrying in 2.0s' }).waitFor({ timeout: 15_000 });
  await quietServer(t, Number(port));
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 15_000 });

  const shown: string[] = await page.evaluate(() => (window as any).shown);
  t.true(new Set(shown.filter((text) => text.startsWith('stale'))).size >= 2, `the stale count went up as shown: ${shown.join(' | ')}`);
  t.deepEqual(await page.evaluate(() => (window as any).told), [
    'Connected to the agent.',
    'The connection is stale: no data from the agent.',
    'Connected to the agent.',
    'Disconnected from the agent (agent stopped); reconnecting.',
    'Connected to the agent.',
  ]);
});
