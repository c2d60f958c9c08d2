import test from 'ava';
import { Subject } from 'rxjs';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import type { AgentEvent } from '../streams/events.js';
import { emptySnapshot, launch, pageOnQuietServer, toastText, TOKEN } from './helpers/dashboardPage.js';

test('in Chromium: a #token= link opened in a tab already on the page (only the hash changes, no reload) sets the token and leaves the address bar', async (t) => {
  // The page was opened with the link of an earlier run of the agent, which generated another token.
  const { server, page } = await pageOnQuietServer(t, {}, 'relinked', '#token=earlier-run-token');
  server.onSignal(() => ({ ok: true, signal: 'command' }));
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  t.is(page.url(), server.url, 'the link is taken out of the address bar');

  await page.goto(`${server.url}#token=${TOKEN}`);
  // The page takes the link as the hash changes, after goto returns; waited for, then compared (to show what it holds).
  await page.waitForFunction((token) => (document.getElementById('token') as HTMLInputElement).value === token, TOKEN, { timeout: 10_000 }).catch(() => undefined);
  t.is(await page.locator('#token').inputValue(), TOKEN);
  t.is(page.url(), server.url, 'and so is the new one');
  await page.click('[data-command=pause]');
  t.is(await toastText(page, 'pause:'), 'pause: accepted');
});

test('in Chromium: reconnected to a restarted server whose snapshot fails, the page drops the earlier agent\'s state and takes the new one\'s events', async (t) => {
  const goal = (seq: number, session: string, goalId: string, description: string) =>
    ({ kind: 'goal', seq, session, cycle: 1, at: 0, goalId, description, status: 'Active', priority: 128, change: 'added' }) as AgentEvent;
  // An agent 30 events in (its snapshot is stamped seq 30), with 30 goals.
  const first = await WsServer.listen({ port: 0, token: TOKEN });
  const earlier$ = new Subject<AgentEvent>();
  const goals = Array.from({ length: 30 }, (_, i) => ({ goalId: `goal-${i + 1}`, description: `Find moons of planet ${i + 1}`, criteria: '', status: 'Active' as const, priority: 128, childIds: [] }));
  earlier$.subscribe(toWebSocket(first, { snapshot: () => ({ ...emptySnapshot('earlier'), cycle: 40, facts: 12, goals }) }));
  goals.forEach((added, i) => earlier$.next(goal(i + 1, 'earlier', added.goalId, added.description)));
  const browser = await launch(t);
  const page = await browser.newPage();
  await page.goto(first.url);
  await page.locator('#goal-count', { hasText: '30 active / 30' }).waitFor({ timeout: 10_000 });

  await first.close();
  await page.locator('#conn[data-state="down"]').waitFor({ timeout: 10_000 });
  // The agent restarts on the same port; its snapshot throws (a library user's, reading extension state, say).
  const second = await WsServer.listen({ port: Number(new URL(first.url).port), token: TOKEN });
  t.teardown(() => second.close());
  const later$ = new Subject<AgentEvent>();
  later$.subscribe(toWebSocket(second, { snapshot: () => { throw new Error('extension state unreadable'); } }));
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 15_000 });
  t.regex(await toastText(page, 'snapshot failed'), /^server: snapshot failed: extension state unreadable/);
  later$.next(goal(1, 'later', 'goal-1', 'Find moons of Jupiter'));
  later$.next({ kind: 'warning', seq: 2, session: 'later', cycle: 1, at: 0, message: 'slow store' } as AgentEvent);
  // Alerts are taken whatever the snapshot: once this one shows, the goal before it has been applied too.
  await page.locator('.alert', { hasText: 'slow store' }).waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
  const shown = await page.evaluate(() => ({
    session: document.getElementById('session')!.textContent,
    goals: [...document.querySelectorAll('[data-testid=goal-tree] .goal .desc')].map((node) => node.textContent),
    cycle: document.getElementById('cycle')!.textContent,
    facts: document.getElementById('facts')!.textContent,
  }));
  t.deepEqual(shown, { session: 'later', goals: ['Find moons of Jupiter'], cycle: '1', facts: '0' });
});
