import test from 'ava';
import type { Page } from 'playwright-core';
import { emptySnapshot, pageOnQuietServer } from './helpers/dashboardPage.js';

/** The cards Tab visits, in order (each once, from the first Tab on), within a bounded number of presses. */
async function cardsByTab(page: Page): Promise<string[]> {
  const visited: string[] = [];
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press('Tab');
    const card = await page.evaluate(() => document.activeElement?.closest('.card')?.classList[1] ?? null);
    if (card === null) continue;
    if (visited.includes(card)) {
      if (visited.at(-1) !== card) break; // round again
      continue;
    }
    visited.push(card);
  }
  return visited;
}

/** The cards as the eye reads them: column by column from the left, each top to bottom. */
async function cardsByLayout(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main .card')]
      .map((card) => ({ name: card.classList[1]!, box: card.getBoundingClientRect() }))
      .sort((a, b) => Math.round(a.box.left) - Math.round(b.box.left) || a.box.top - b.box.top)
      .map(({ name }) => name),
  );
}

for (const width of [1440, 900]) {
  test(`in Chromium at ${width} px: Tab goes through the cards in the order they are laid out, column by column, each top to bottom`, async (t) => {
    const snapshot = () => ({
      ...emptySnapshot('focus'),
      goals: [{ goalId: 'goal-1', description: 'Find moons of Mars', criteria: '', status: 'Active' as const, priority: 128, childIds: [] }],
      questions: [{ questionId: 'q-1', goalId: 'goal-1', text: 'Which moon first?', timeoutMs: 600_000, askedAt: 0 }],
    });
    const { page } = await pageOnQuietServer(t, {}, 'focus', '', snapshot);
    await page.setViewportSize({ width, height: 900 });
    await page.locator('.answer-form input').waitFor({ timeout: 10_000 });
    const byTab = await cardsByTab(page);
    t.true(byTab.length >= 3, `Tab reached ${byTab.join(', ')}`);
    const laidOut = (await cardsByLayout(page)).filter((card) => byTab.includes(card));
    t.deepEqual(byTab, laidOut);
  });
}
