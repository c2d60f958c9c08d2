import test from 'ava';
import type { AgentEvent } from '../streams/events.js';
import { pageOnQuietServer } from './helpers/dashboardPage.js';

const SESSION = 'reload';

test('in Chromium: alerts from before the last 100 events are still listed after a reload', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION);
  let seq = 0;
  const publish = (body: object) => events$.next({ seq: ++seq, session: SESSION, cycle: seq, at: 0, ...body } as AgentEvent);
  publish({ kind: 'error', severity: 'transient', message: 'kg_query timed out', rolledBack: true });
  publish({ kind: 'loop', goalId: 'goal-1', type: 'consecutive_action', actionType: 'kg_query', count: 3, windowSize: 10, details: 'kg_query ran 3 times in a row', intervened: false });
  for (let i = 0; i < 150; i++) publish({ kind: 'heartbeat', beat: i });
  const alerts = () => page.locator('#alerts .alert').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
  await page.locator('#alerts .alert[data-kind=error]').waitFor({ timeout: 10_000 });
  t.deepEqual(await alerts(), ['loop', 'error'], 'the open page');

  await page.reload();
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  await page.locator('#alerts .alert[data-kind=error]').waitFor({ timeout: 10_000 });
  t.deepEqual(await alerts(), ['loop', 'error'], 'the page after a reload');
  t.is(await page.locator('#alert-count').textContent(), '2');
});
