import test from 'ava';
import { pageOnQuietServer, toastText, TOKEN } from './helpers/dashboardPage.js';

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
