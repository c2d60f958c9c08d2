import test from 'ava';
import type { Page } from 'playwright-core';
import type { AgentEvent } from '../streams/events.js';
import type { Snapshot } from '../streams/wsProtocol.js';
import { emptySnapshot, pageOnQuietServer } from './helpers/dashboardPage.js';

const SESSION = 'goal-tree';
/** 3,000 active goals, goal-n of priority (n - 1) % 256: the tree shows the 200 of priority 255 down to 237. */
const manyGoals = (): Snapshot => ({
  ...emptySnapshot(SESSION),
  goals: Array.from({ length: 3000 }, (_, i) => ({ goalId: `goal-${i + 1}`, description: `Find qzx ${i + 1}`, criteria: '', status: 'Active', priority: i % 256, childIds: [] })),
});

/**
 * Starts recording what changes in the goal tree: each mutation as the goal
 * whose row it touched (the goal of its target's row, or of the items a list
 * gained or lost), `tree` for the tree itself (its last line).
 */
async function watchTree(page: Page): Promise<void> {
  // A string: tsx names the test's functions with a helper the page lacks.
  await page.evaluate(`{
    const tree = document.querySelector('[data-testid=goal-tree]');
    document.querySelectorAll('[data-testid=goal-tree] .goal').forEach((row) => (row.dataset.mark = 'kept'));
    const goalOf = (node) => {
      const element = node instanceof Element ? node : node.parentElement;
      return (element.querySelector(':scope > .goal') ?? element.closest('.goal'))?.getAttribute('data-goal-id') ?? 'tree';
    };
    const touched = (window.touched = []);
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type !== 'childList' || record.target !== tree) touched.push(goalOf(record.target));
        else for (const node of [...record.addedNodes, ...record.removedNodes]) touched.push(goalOf(node));
      }
    }).observe(tree, { subtree: true, childList: true, attributes: true, characterData: true });
  }`);
}

/** The goals whose rows changed since watchTree, and the rows drawn anew (without the mark). */
async function changes(page: Page): Promise<{ touched: string[]; redrawn: number }> {
  return page.evaluate(() => ({
    touched: [...new Set((window as unknown as { touched: string[] }).touched)],
    redrawn: document.querySelectorAll('[data-testid=goal-tree] .goal:not([data-mark])').length,
  }));
}

test('in Chromium: with thousands of goals, a goal event changes only its own row and moves it to its place; the other rows stay as drawn', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', manyGoals);
  const tree = page.locator('[data-testid=goal-tree] .goal');
  await page.locator('[data-testid=more-goals]').waitFor({ timeout: 10_000 });
  t.is(await tree.count(), 200);
  await watchTree(page);
  const goalEvent = (seq: number, n: number, priority: number, description: string) =>
    ({ kind: 'goal', seq, session: SESSION, cycle: seq, at: 0, goalId: `goal-${n}`, description, status: 'Active', priority, change: 'priority' }) as AgentEvent;

  // goal-240 (priority 239, near the end of those shown) is raised to the top.
  events$.next(goalEvent(1, 240, 255, 'Find qzx 240, urgently'));
  const first = page.locator('[data-testid=goal-tree] .goal').first();
  await first.locator('.desc', { hasText: 'urgently' }).waitFor({ timeout: 10_000 });
  t.is(await first.getAttribute('data-goal-id'), 'goal-240', 'the highest priority first, then by id');
  t.deepEqual(await changes(page), { touched: ['goal-240'], redrawn: 0 }, 'only its row changed, moved and filled in place');
  t.deepEqual((await tree.evaluateAll((rows) => rows.slice(0, 3).map((row) => row.getAttribute('data-goal-id')))), ['goal-240', 'goal-256', 'goal-512']);

  // A goal that finishes leaves the 200 shown; the next most important comes in.
  events$.next({ ...goalEvent(2, 256, 255, 'Find qzx 256'), status: 'Completed', change: 'completed' } as AgentEvent);
  await page.locator('#goal-count', { hasText: '2999 active / 3000' }).waitFor({ timeout: 10_000 });
  const after = await changes(page);
  t.is(after.redrawn, 1, 'one row drawn: the goal that came into view');
  t.is(after.touched.length, 3, `the raised goal, the finished one and the one that came in: ${after.touched.join(', ')}`);
  t.deepEqual(after.touched.slice(0, 2), ['goal-240', 'goal-256']);
  t.deepEqual(await tree.evaluateAll((rows) => rows.slice(0, 2).map((row) => row.getAttribute('data-goal-id'))), ['goal-240', 'goal-512']);
  t.is(await page.locator('[data-testid=more-goals]').textContent(), '… and 2800 more, lower in status or priority');
});

test('in Chromium: sub-goals stay under their goal, most important first, as goal events change and add them', async (t) => {
  const goal = (n: number, priority: number, parentId?: string) => ({ goalId: `goal-${n}`, description: `Goal ${n}`, criteria: '', status: 'Active' as const, priority, childIds: [], ...(parentId ? { parentId } : {}) });
  const snapshot = (): Snapshot => ({ ...emptySnapshot(SESSION), goals: [goal(1, 128), goal(2, 100, 'goal-1'), goal(3, 200, 'goal-1'), goal(5, 50)] });
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  /** The tree as `goal-n[children]` in the order drawn. */
  const tree = () => page.evaluate(`{
    const walk = (list) => [...list.children].filter((item) => item.querySelector(':scope > .goal')).map((item) => {
      const below = item.querySelector(':scope > ul');
      return item.querySelector(':scope > .goal').dataset.goalId + (below ? '[' + walk(below).join(' ') + ']' : '');
    });
    walk(document.querySelector('[data-testid=goal-tree]')).join(' ');
  }`);
  await page.locator('.goal[data-goal-id=goal-3]').waitFor({ timeout: 10_000 });
  t.is(await tree(), 'goal-1[goal-3 goal-2] goal-5');
  const event = (seq: number, n: number, priority: number, parentId?: string) =>
    ({ kind: 'goal', seq, session: SESSION, cycle: seq, at: 0, goalId: `goal-${n}`, description: `Goal ${n}`, status: 'Active', priority, change: 'priority', ...(parentId ? { parentId } : {}) }) as AgentEvent;
  events$.next(event(1, 2, 250, 'goal-1'));
  events$.next(event(2, 4, 10, 'goal-3'));
  events$.next(event(3, 5, 255));
  await page.locator('.goal[data-goal-id=goal-4]').waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
  t.is(await tree(), 'goal-5 goal-1[goal-2 goal-3[goal-4]]');
});

test('in Chromium: by keyboard alone, Tab reaches the goal tree, the arrow keys move between goals, and the goal moved to shows its description whole, staying chosen as it moves', async (t) => {
  const long = `Find ${'the moons of every planet of the solar system '.repeat(6)}`;
  const goal = (n: number, priority: number, description: string) => ({ goalId: `goal-${n}`, description, criteria: '', status: 'Active' as const, priority, childIds: [] });
  const snapshot = (): Snapshot => ({ ...emptySnapshot(SESSION), goals: [goal(1, 200, 'Find moons of Mars'), goal(2, 150, long), goal(3, 100, 'Find rings of Saturn')] });
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  await page.locator('.goal[data-goal-id=goal-3]').waitFor({ timeout: 10_000 });
  const focused = () => page.evaluate(() => (document.activeElement as HTMLElement).dataset.goalId ?? document.activeElement!.id);
  let on = '';
  for (let presses = 0; presses < 20 && on !== 'goal-tree'; presses++) {
    await page.keyboard.press('Tab');
    on = await focused();
  }
  t.is(on, 'goal-tree', 'Tab reaches the tree');
  await page.keyboard.press('ArrowDown');
  t.is(await focused(), 'goal-1');
  await page.keyboard.press('End');
  t.is(await focused(), 'goal-3');
  await page.keyboard.press('ArrowUp');
  t.is(await focused(), 'goal-2');
  const desc = page.locator('.goal[data-goal-id=goal-2] .desc');
  t.true(await desc.evaluate((node) => node.scrollWidth <= node.clientWidth && node.getBoundingClientRect().height > 30), 'the chosen goal\'s description is whole, on several lines');
  t.true(await page.locator('.goal[data-goal-id=goal-1] .desc').evaluate((node) => node.getBoundingClientRect().height < 30), 'the others keep to one line');

  events$.next({ kind: 'goal', seq: 1, session: SESSION, cycle: 1, at: 0, goalId: 'goal-2', description: long, status: 'Active', priority: 250, change: 'priority' } as AgentEvent);
  await page.locator('.goal').first().locator('xpath=self::*[@data-goal-id="goal-2"]').waitFor({ timeout: 10_000 });
  t.is(await focused(), 'goal-2', 'still chosen after moving to the top');
  await page.keyboard.press('ArrowDown');
  t.is(await focused(), 'goal-1');

  // Out of the tree (back to the controls before it) and in again: the goal chosen is chosen again, not the tree's start.
  await page.keyboard.press('Shift+Tab');
  t.not(await focused(), 'goal-1');
  await page.keyboard.press('Tab');
  t.is(await focused(), 'goal-1', 'back on the goal chosen before');
  await page.keyboard.press('ArrowDown');
  t.is(await focused(), 'goal-3', 'and the arrows go on from it');
});

test('in Chromium: a goal that changed while below the 200 shown is drawn as it is now when it comes back into view', async (t) => {
  const goal = (n: number) => ({ goalId: `goal-${n}`, description: `Goal ${n}`, criteria: '', status: 'Active' as const, priority: 100, childIds: [] });
  // goal-1 to goal-200 shown (by id, all of one priority), goal-201 below them.
  const snapshot = (): Snapshot => ({ ...emptySnapshot(SESSION), goals: Array.from({ length: 201 }, (_, i) => goal(i + 1)) });
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  await page.locator('.goal[data-goal-id=goal-200]').waitFor({ timeout: 10_000 });
  const event = (seq: number, n: number, description: string, priority: number, status = 'Active') =>
    ({ kind: 'goal', seq, session: SESSION, cycle: seq, at: 0, goalId: `goal-${n}`, description, status, priority, change: 'priority' }) as AgentEvent;

  // A new, more important goal pushes goal-200 out of view.
  events$.next(event(1, 202, 'Goal 202', 200));
  await page.locator('.goal[data-goal-id=goal-202]').waitFor({ timeout: 10_000 });
  t.is(await page.locator('.goal[data-goal-id=goal-200]').count(), 0);
  // goal-200 changes while out of view (a warning after it shows when the page has drawn both).
  events$.next(event(2, 200, 'Goal 200, reworded', 100));
  events$.next({ kind: 'warning', seq: 3, session: SESSION, cycle: 3, at: 0, message: 'drawn' } as AgentEvent);
  await page.locator('#alerts', { hasText: 'drawn' }).waitFor({ timeout: 10_000 });
  t.is(await page.locator('.goal[data-goal-id=goal-200]').count(), 0);
  // goal-202 finishes: the first 200 are goal-1 to goal-200 again.
  events$.next(event(4, 202, 'Goal 202', 200, 'Completed'));
  await page.locator('#goal-count', { hasText: '201 active / 202' }).waitFor({ timeout: 10_000 });
  const row = page.locator('.goal[data-goal-id=goal-200]');
  t.is(await row.locator('.desc').textContent(), 'Goal 200, reworded');
  t.is(await row.getAttribute('title'), 'goal-200: Goal 200, reworded');
});

test('in Chromium: a goal that changes again while its row still flashes plays the one flash again, rather than stacking a new one per change', async (t) => {
  const snapshot = (): Snapshot => ({ ...emptySnapshot(SESSION), goals: [{ goalId: 'goal-1', description: 'Find moons of Mars', criteria: '', status: 'Active', priority: 100, childIds: [] }] });
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  const row = page.locator('.goal[data-goal-id=goal-1]');
  await row.waitFor({ timeout: 10_000 });
  const running: number[] = [];
  for (let priority = 101; priority <= 104; priority++) {
    events$.next({ kind: 'goal', seq: priority, session: SESSION, cycle: 1, at: 0, goalId: 'goal-1', description: 'Find moons of Mars', status: 'Active', priority, change: 'priority' } as AgentEvent);
    await row.locator('.prio', { hasText: String(priority) }).waitFor({ timeout: 10_000 });
    running.push(await row.evaluate((element) => element.getAnimations().filter((animation) => animation.playState === 'running').length));
  }
  t.deepEqual(running, [1, 1, 1, 1]);
});
