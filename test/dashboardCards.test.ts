import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { narrate } from '../mind/intervention.js';
import type { AgentEvent } from '../streams/events.js';
import { packageRoot } from '../streams/packageRoot.js';
import type { Snapshot } from '../streams/wsProtocol.js';
import { emptySnapshot, pageOnQuietServer, TOKEN } from './helpers/dashboardPage.js';

const SESSION = 'cards';
const header = (seq: number, cycle: number) => ({ seq, session: SESSION, cycle, at: 0 });
const BREAKDOWN = '[score=0.50: base=0.50 recency=-0.00 novelty=+0.00 episodic=+0.00 pressure=+0.00 archetype=+0.000]';

/** An agent two decisions in, on one goal. */
function twoDecisions(): Snapshot {
  const decision = (cycle: number) => ({ cycle, goalId: 'goal-1', tool: 'kg_query', score: 0.5, breakdown: BREAKDOWN, status: 'ok', progress: 'advanced' });
  return {
    ...emptySnapshot(SESSION),
    cycle: 2,
    goals: [{ goalId: 'goal-1', description: 'Find moons of Mars', criteria: '', status: 'Active', priority: 128, childIds: [] }],
    decisions: [decision(1), decision(2)],
  };
}

/** Marks every decision card and alert as it is now drawn (`data-mark`), to tell later whether the page replaced it. */
async function markCards(page: Page): Promise<void> {
  await page.evaluate(() => document.querySelectorAll<HTMLElement>('.decision, .alert').forEach((node) => (node.dataset.mark = 'drawn')));
}

/** Each decision card and alert as `cycle or kind: mark, running animations`. */
async function cards(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.decision, .alert')].map((node) => {
      const name = node.dataset.kind ?? /cycle (\d+)$/.exec(node.querySelector('.goal-ref')!.textContent!)?.[1];
      return `${name}: ${node.dataset.mark ?? 'new'}, ${node.getAnimations().length} running`;
    }),
  );
}

test('in Chromium: cards already shown stay as drawn: an idle page does not fade its decisions and alerts in again every second, and a new one fades in alone', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', twoDecisions);
  await page.locator('.decision').nth(1).waitFor({ timeout: 10_000 });
  events$.next({ kind: 'warning', ...header(1, 2), message: 'store is slow' } as AgentEvent);
  await page.locator('.alert[data-kind=warning]').waitFor({ timeout: 10_000 });
  // Past the cards' 0.35 s entry: nothing runs on them now.
  await page.waitForFunction(() => [...document.querySelectorAll('.decision, .alert')].every((node) => node.getAnimations().length === 0), undefined, { timeout: 10_000 });
  await markCards(page);
  // The page samples the cycle rate every second and redraws.
  await page.waitForTimeout(2500);
  t.deepEqual(await cards(page), ['2: drawn, 0 running', '1: drawn, 0 running', 'warning: drawn, 0 running'], 'idle: left as drawn');

  // A new decision, and the outcome of the one before it.
  events$.next({ kind: 'decision', ...header(2, 3), goalId: 'goal-1', tool: 'reason', score: 0.5, breakdown: BREAKDOWN, input: {}, alternatives: [], reason: '' } as AgentEvent);
  await page.locator('.decision[data-tool=reason]').waitFor({ timeout: 10_000 });
  events$.next({ kind: 'action', ...header(3, 2), goalId: 'goal-1', tool: 'kg_query', status: 'ok', summary: '', progress: 'completed', facts: 0, memorySize: 0 } as AgentEvent);
  await page.locator('.decision .outcome[data-progress=completed]').waitFor({ timeout: 10_000 });
  const after = await cards(page);
  t.regex(after[0]!, /^3: new, /, 'the new decision is drawn');
  t.deepEqual(after.slice(1), ['2: drawn, 0 running', '1: drawn, 0 running', 'warning: drawn, 0 running'], 'the others stay, the one with an outcome updated in place');
});

test('in Chromium: under a flood of events, a decision card\'s outcome is added to it when its action comes, and no other node of any card is replaced', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', twoDecisions);
  await page.locator('.decision').nth(1).waitFor({ timeout: 10_000 });
  events$.next({ kind: 'decision', ...header(1, 3), goalId: 'goal-1', tool: 'reason', score: 0.5, breakdown: BREAKDOWN, input: {}, alternatives: [{ tool: 'kg_query', score: 0.4 }], reason: '' } as AgentEvent);
  await page.locator('.decision[data-tool=reason] .alternatives').waitFor({ timeout: 10_000 });
  // Every element of the cards is marked, and every element added to or removed from them from now on counted.
  await page.evaluate(() => {
    const list = document.getElementById('decisions')!;
    const marked = [...list.querySelectorAll('*')];
    const changes = { added: [] as string[], removed: 0, marked };
    (window as unknown as { cardChanges: typeof changes }).cardChanges = changes;
    new MutationObserver((records) => {
      for (const record of records) {
        changes.added.push(...[...record.addedNodes].filter((node) => node instanceof Element).map((node) => (node as Element).className));
        changes.removed += [...record.removedNodes].filter((node) => node instanceof Element).length;
      }
    }).observe(list, { childList: true, subtree: true });
  });
  // Thousands of events in bursts; each burst raises the cycle, so the page has drawn it once the header shows it. The action of the new card comes mid-flood.
  let seq = 2;
  for (let burst = 1; burst <= 20; burst++) {
    for (let i = 0; i < 150; i++) events$.next({ kind: 'heartbeat', ...header(seq++, 3 + burst), beat: seq } as AgentEvent);
    if (burst === 10) events$.next({ kind: 'action', ...header(seq++, 3), goalId: 'goal-1', tool: 'reason', status: 'ok', summary: '', progress: 'advanced', facts: 0, memorySize: 0 } as AgentEvent);
    await page.locator('#cycle', { hasText: new RegExp(`^${3 + burst}$`) }).waitFor({ timeout: 10_000 });
  }
  t.is(await page.locator('.decision[data-tool=reason] .outcome').textContent(), 'advanced', 'the outcome is shown');
  const changes = await page.evaluate(() => {
    const { added, removed, marked } = (window as unknown as { cardChanges: { added: string[]; removed: number; marked: Element[] } }).cardChanges;
    return { added, removed, replaced: marked.filter((node) => !node.isConnected).length };
  });
  t.deepEqual(changes, { added: ['outcome'], removed: 0, replaced: 0 }, 'only the outcome was added; every node drawn before is still there');
});

test('in Chromium: a decision card that comes while the last new ones are still fading in shows at once: under a flood, cards are not each given a fade they never finish', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', twoDecisions);
  await page.locator('.decision').nth(1).waitFor({ timeout: 10_000 });
  t.is(await page.locator('.decision.entering').count(), 2, 'the snapshot\'s cards fade in together');
  await page.waitForFunction(() => [...document.querySelectorAll('.decision')].every((node) => node.getAnimations().length === 0), undefined, { timeout: 10_000 });
  // The page's clock stops: however slow the machine, the next cards come within one fade.
  await page.evaluate(() => {
    const now = performance.now();
    performance.now = () => now;
  });
  const decide = (seq: number, cycle: number) => events$.next({ kind: 'decision', ...header(seq, cycle), goalId: 'goal-1', tool: 'reason', score: 0.5, breakdown: BREAKDOWN, input: {}, alternatives: [], reason: '' } as AgentEvent);
  decide(1, 3);
  await page.locator('.decision').nth(2).waitFor({ timeout: 10_000 });
  decide(2, 4);
  await page.locator('.decision').nth(3).waitFor({ timeout: 10_000 });
  // Read as classes and the newest card's animations: the first's fade may be over by now on a slow machine.
  const [newest, first] = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.decision')].slice(0, 2).map((node) => ({ fades: node.classList.contains('entering'), running: node.getAnimations().length })));
  t.true(first!.fades, 'the first after the snapshot\'s fades in');
  t.deepEqual(newest, { fades: false, running: 0 }, 'the second comes while the first fades: it shows at once');
});

test('in Chromium: a long unbroken string in an alert or a toast wraps inside its card instead of running across the page', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  const url = `https://example.com/${'a'.repeat(2000)}`;
  events$.next({ kind: 'error', ...header(1, 1), severity: 'critical', message: `tool failed: ${url}`, rolledBack: true } as AgentEvent);
  events$.next({ kind: 'command', ...header(2, 1), command: 'status', result: url } as AgentEvent);
  await page.locator('.alert[data-kind=error]').waitFor({ timeout: 10_000 });
  // Pinned as it appears: a toast leaves after 6 s.
  await page.waitForFunction(() => {
    const toast = document.querySelector('.toast');
    if (toast) toast.remove = () => undefined;
    return toast !== null;
  }, undefined, { timeout: 10_000 });
  const overflowing = await page.evaluate(() =>
    ['html', '#alerts', '.alert', '.toast'].filter((selector) => {
      const node = document.querySelector(selector)!;
      return node.scrollWidth > node.clientWidth;
    }),
  );
  t.deepEqual(overflowing, [], 'nothing is wider than its box: the page does not scroll sideways, nor does the alert list');
});

test('in Chromium: a goal description cut short in the goal tree or a decision card is there in full in its tooltip', async (t) => {
  const description = 'Find stars, classify the planets that orbit them, and learn what whales have to do with any of it';
  const snapshot = (): Snapshot => {
    const base = twoDecisions();
    return { ...base, goals: [{ ...base.goals[0]!, description, criteria: 'knows Mars' }, { goalId: 'goal-2', description: `${description} (again)`, criteria: '', status: 'Active', priority: 1, childIds: [] }] };
  };
  const { page } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  await page.locator('.decision').first().waitFor({ timeout: 10_000 });
  const shown = await page.evaluate(() => {
    const goals = [...document.querySelectorAll<HTMLElement>('[data-testid=goal-tree] .goal')];
    const reference = document.querySelector<HTMLElement>('.decision .goal-ref')!;
    return {
      cut: [...goals.map((goal) => goal.querySelector('.desc')!), reference].every((node) => node.scrollWidth > node.clientWidth),
      titles: [...goals.map((goal) => goal.title), reference.title],
    };
  });
  t.true(shown.cut, 'the descriptions are cut short on the page');
  t.deepEqual(shown.titles, [`goal-1: ${description}\ncriteria: knows Mars`, `goal-2: ${description} (again)`, `goal-1: ${description}\ncriteria: knows Mars`]);
});

test('in Chromium: every text on the page contrasts with its background at least 4.5:1 (WCAG AA), the zero parts of a breakdown too', async (t) => {
  const snapshot = (): Snapshot => {
    const base = twoDecisions();
    return { ...base, paused: true, goals: (['Active', 'Suspended', 'Completed', 'Failed'] as const).map((status, i) => ({ ...base.goals[0]!, goalId: `goal-${i + 1}`, status })) };
  };
  const { server, page, events$ } = await pageOnQuietServer(t, {}, SESSION, `#token=${TOKEN}`, snapshot);
  server.onSignal(() => ({ ok: false, error: 'not now' }));
  await page.locator('.decision').nth(1).waitFor({ timeout: 10_000 });
  const alerts = ['loop', 'intervention', 'error', 'warning', 'rejected'];
  alerts.forEach((kind, i) => events$.next({ kind, ...header(i + 1, 2), message: 'something', source: 'stdin', reason: 'bad' } as unknown as AgentEvent));
  events$.next({ kind: 'command', ...header(alerts.length + 1, 2), command: 'status', result: 'cycle 2' } as AgentEvent);
  // A plan of every step status, a question of each status, a reflection.
  const steps = ['Completed', 'Failed', 'Skipped', 'Active', 'Pending'].map((status, index) => ({ index, tool: 'kg_query', status }));
  events$.next({ kind: 'plan', ...header(alerts.length + 2, 2), goalId: 'goal-1', planId: 'plan-1', attempt: 1, strategy: 'Knowledge', order: 'reason-first', status: 'Active', change: 'step', steps, departures: 1, reason: 'step' } as AgentEvent);
  (['asked', 'answered', 'expired'] as const).forEach((status, i) =>
    events$.next({ kind: 'question', ...header(alerts.length + 3 + i, 2), questionId: `question-${i}`, goalId: 'goal-1', text: 'Which moon?', timeoutMs: 60_000, status, answer: 'Phobos' } as AgentEvent));
  events$.next({ kind: 'reflection', ...header(alerts.length + 6, 2), number: 1, trigger: 'command', cycles: 2, pressure: 0.5, tools: [{ tool: 'kg_query', runs: 2, ok: 1, rate: 0.5 }], adjustments: [{ kind: 'demote', goalId: 'goal-1', from: 128, to: 118, reason: 'no progress' }] } as AgentEvent);
  await page.locator('.question .answer-form').waitFor({ timeout: 10_000 });
  await page.click('[data-command=pause]');
  await page.locator('.toast.error').waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState === 'finished'), undefined, { timeout: 10_000 });
  const low: string[] = await page.evaluate(readFileSync(join(packageRoot(), 'test', 'helpers', 'lowContrastTexts.js'), 'utf8'));
  t.true(await page.locator('.bars .value.zero').count() > 0, 'zero parts are drawn');
  t.is(await page.locator('[data-testid=plan] .step').count(), 5, 'the plan is drawn');
  t.is(await page.locator('#reflection li').count(), 1, 'the reflection is drawn');
  t.deepEqual(low, []);
});

test('in Chromium: a loop alert reads as its details sentence and an intervention as its narrative, not as a dump of their fields; a screen reader reads the kind as its own word', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', twoDecisions);
  await page.locator('.decision').nth(1).waitFor({ timeout: 10_000 });
  const details = '4 consecutive kg_query actions on goal goal-1 (threshold 3)';
  const narrative = 'I noticed I was repeating kg_query on goal-1; I set it aside to find another way.';
  events$.next({ kind: 'loop', ...header(1, 2), type: 'consecutive', actionType: 'kg_query', count: 4, details, goalId: 'goal-1', intervened: true } as unknown as AgentEvent);
  events$.next({ kind: 'intervention', ...header(2, 2), goalId: 'goal-2', loopType: 'consecutive', actionType: 'kg_query', narrative, planDropped: true } as unknown as AgentEvent);
  await page.locator('.alert[data-kind=intervention]').waitFor({ timeout: 10_000 });
  t.is(await page.locator('.alert[data-kind=loop]').textContent(), `#2loop goal-1: ${details}`);
  t.is(await page.locator('.alert[data-kind=intervention]').textContent(), `#2intervention goal-2: ${narrative}`);
  // What a screen reader reads: the cycle (set apart by its float), then the kind, a word of its own ("loopgoal-1" was read).
  t.is(await page.locator('.alert[data-kind=loop]').ariaSnapshot(), `- listitem: "#2 loop goal-1: ${details}"`);
});

test('in Chromium: a right-to-left override (U+202E) in a goal description is isolated in the alerts that quote it, so it does not reverse the rest of their sentence, nor the page\'s text around it', async (t) => {
  const description = 'Find moons of \u202EMars';
  const snapshot = (): Snapshot => ({ ...twoDecisions(), goals: [{ ...twoDecisions().goals[0]!, description }] });
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  await page.locator('.decision').nth(1).waitFor({ timeout: 10_000 });
  const narrative = narrate({ type: 'consecutive_action', actionType: 'kg_query', count: 4, windowSize: 4, details: '' }, { description }, true);
  const message = `tool kg_query failed on "${description}": no such moon`;
  events$.next({ kind: 'intervention', ...header(1, 2), goalId: 'goal-2', description: 'INTERVENTION: break loop — consecutive_action of kg_query', suspendedGoalId: 'goal-1', loopType: 'consecutive_action', actionType: 'kg_query', narrative, planDropped: true } as AgentEvent);
  events$.next({ kind: 'error', ...header(2, 2), severity: 'transient', message, rolledBack: false, goalId: 'goal-1' } as AgentEvent);
  events$.next({ kind: 'rejected', ...header(3, 2), source: 'stdin', line: 7, reason: 'not JSON: \u202Eabc' } as AgentEvent);
  await page.locator('.alert[data-kind=rejected]').waitFor({ timeout: 10_000 });
  // Each alert's runs isolated from the text around them (computed unicode-bidi), as their texts.
  const isolated = await page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll<HTMLElement>('.alert')].map((alert) => [
      alert.dataset.kind,
      [...alert.querySelectorAll('*')].filter((node) => getComputedStyle(node).unicodeBidi === 'isolate').map((node) => node.textContent),
    ])));
  t.deepEqual(isolated, {
    intervention: [narrative, description],
    error: [message, description],
    rejected: ['not JSON: \u202Eabc'],
  });
  t.true(narrative.endsWith(`"${description}". I set that goal aside to break the loop and dropped its plan; I will come back to it.`), 'the sentence goes on after the description');
  t.is(await page.locator('.alert[data-kind=intervention]').textContent(), `#2intervention goal-2: ${narrative}`);
});

test('in Chromium: in a window 400 px wide the connection status, the paused badge and each decision\'s score are on screen, and nothing scrolls sideways', async (t) => {
  const snapshot = (): Snapshot => ({ ...twoDecisions(), paused: true, decisions: [{ ...twoDecisions().decisions[0]!, tool: 'similarity_search' }] });
  const { page } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  await page.setViewportSize({ width: 400, height: 800 });
  await page.locator('.decision').waitFor({ timeout: 10_000 });
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  const layout = await page.evaluate(() => {
    const [conn, paused, score, card] = ['#conn', '#paused', '.decision .score', '.decision'].map((selector) => document.querySelector(selector)!.getBoundingClientRect());
    return { scrollsSideways: document.documentElement.scrollWidth > innerWidth, conn: conn!.right <= innerWidth, paused: paused!.right <= innerWidth, score: score!.right <= card!.right };
  });
  t.deepEqual(layout, { scrollsSideways: false, conn: true, paused: true, score: true });
});

test('in Chromium: a tool name too long for the card (snake_case, no spaces) wraps inside it, in the card\'s header and among the alternatives; nothing scrolls sideways', async (t) => {
  const tool = 'retrieve_customer_account_information_from_crm';
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', twoDecisions);
  await page.setViewportSize({ width: 400, height: 800 });
  await page.locator('.decision').first().waitFor({ timeout: 10_000 });
  events$.next({ kind: 'decision', ...header(1, 3), goalId: 'goal-1', tool, score: 0.5, breakdown: BREAKDOWN, input: {}, alternatives: [{ tool: `${tool}_v2`, score: 0.4 }], reason: '' } as AgentEvent);
  await page.locator('.decision[data-tool=retrieve_customer_account_information_from_crm]').waitFor({ timeout: 10_000 });
  const layout = await page.evaluate(() => {
    const [card, tool, alternative] = ['.decision', '.decision .tool', '.decision .alternatives span'].map((selector) => document.querySelector(selector)!.getBoundingClientRect());
    return { scrollsSideways: document.documentElement.scrollWidth > innerWidth, tool: tool!.right <= card!.right, alternative: alternative!.right <= card!.right };
  });
  t.deepEqual(layout, { scrollsSideways: false, tool: true, alternative: true });
});

test('in Chromium: a very long goal description keeps the questions and reflection panels short: a question shows three lines with its answer field in view, a reflection names the goal in 80 characters; both whole in their tooltips', async (t) => {
  const description = `Find ${'the moons of every planet of the solar system '.repeat(400)}`;
  const snapshot = (): Snapshot => ({ ...twoDecisions(), goals: [{ ...twoDecisions().goals[0]!, description }] });
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  await page.locator('.decision').first().waitFor({ timeout: 10_000 });
  events$.next({ kind: 'question', ...header(1, 2), questionId: 'question-1', goalId: 'goal-1', text: `${description}?`, timeoutMs: 60_000, status: 'asked' } as AgentEvent);
  events$.next({ kind: 'reflection', ...header(2, 2), number: 1, trigger: 'command', cycles: 2, pressure: 0.5, tools: [], adjustments: [{ kind: 'boost', goalId: 'goal-1', from: 128, to: 138, reason: 'added knowledge' }] } as AgentEvent);
  await page.locator('#reflection li').waitFor({ timeout: 10_000 });
  await page.locator('.question .answer-form').waitFor({ timeout: 10_000 });
  const layout = await page.evaluate(() => {
    const [panel, question, form, reflection] = ['#questions', '.question', '.answer-form', '#reflection'].map((selector) => document.querySelector(selector)!.getBoundingClientRect());
    return {
      questionUnder200px: question!.height < 200,
      formInPanel: form!.bottom <= panel!.bottom,
      reflectionUnder200px: reflection!.height < 200,
      questionTooltip: document.querySelector('.question .text')!.getAttribute('title')!.length,
      reflectionTooltip: document.querySelector('#reflection li span')!.getAttribute('title')!.length,
    };
  });
  t.deepEqual(layout, { questionUnder200px: true, formInPanel: true, reflectionUnder200px: true, questionTooltip: description.length + 1, reflectionTooltip: 'goal-1: '.length + description.length });
  t.is(await page.locator('#reflection li span').first().textContent(), `${description.slice(0, 80)}…`);
});

test('in Chromium: the memory gauge runs green to amber to red once across its whole width, so a nearly full memory ends in red, at any window width', async (t) => {
  const snapshot = (): Snapshot => ({ ...emptySnapshot(SESSION), memory: { size: 95, capacity: 100, pressure: 0.95, recent: [] } });
  const { page } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  await page.locator('#memory-text', { hasText: '95 / 100 entries' }).waitFor({ timeout: 10_000 });
  // How much redder than green (red minus green) the gauge is drawn at each tenth of its width, up to the fill's end.
  const fractions = [0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.93];
  for (const width of [1440, 1000]) {
    await page.setViewportSize({ width, height: 900 });
    const png = (await page.locator('.gauge').screenshot({ animations: 'disabled' })).toString('base64');
    const redness = await page.evaluate(async ([png, fractions]) => {
      const image = await createImageBitmap(new Blob([Uint8Array.from(atob(png), (char) => char.charCodeAt(0))], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return fractions.map((fraction) => {
        const [red, green] = context.getImageData(Math.floor(image.width * fraction), Math.floor(image.height / 2), 1, 1).data;
        return red! - green!;
      });
    }, [png, fractions] as const);
    t.true(redness.every((value, i) => i === 0 || value >= redness[i - 1]! - 8), `${width} px: redder along the gauge: ${redness.join(', ')}`);
    t.true(redness.at(-1)! > 80, `${width} px: red at the end of a 95% fill: ${redness.at(-1)}`);
  }
});

test('in Chromium: a screen reader finds each panel by its heading, the decisions\' named without the colour legend beside it', async (t) => {
  const { page } = await pageOnQuietServer(t, {}, SESSION, '', twoDecisions);
  await page.locator('.decision').nth(1).waitFor({ timeout: 10_000 });
  const headings = await page.getByRole('heading').count();
  const names: string[] = [];
  for (let i = 0; i < headings; i++) names.push(await page.getByRole('heading').nth(i).ariaSnapshot());
  t.deepEqual(names, [
    '- heading "Control" [level=2]',
    '- heading "Goals 1 active / 1" [level=2]',
    '- heading "Latest decisions" [level=2]',
    '- heading "Cycles per second" [level=2]',
    '- heading "Working memory" [level=2]',
    '- heading "Alerts" [level=2]',
    '- heading "Questions" [level=2]',
    '- heading "Latest reflection" [level=2]',
  ]);
  t.is(await page.locator('#legend span').count(), 7, 'the legend is still drawn');
});
