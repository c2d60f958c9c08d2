import test from 'ava';
import type { AgentEvent } from '../streams/events.js';
import type { Snapshot } from '../streams/wsProtocol.js';
import { emptySnapshot, pageOnQuietServer } from './helpers/dashboardPage.js';

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

test('in Chromium: each goal\'s active plan, the questions asked and the latest reflection are shown, and again after a reload', async (t) => {
  const snapshot = (): Snapshot => ({
    ...emptySnapshot(SESSION),
    goals: [{ goalId: 'goal-1', description: 'Find moons of Mars', criteria: '', status: 'Active', priority: 128, childIds: [] }],
  });
  const { page, events$ } = await pageOnQuietServer(t, {}, SESSION, '', snapshot);
  let seq = 0;
  const publish = (body: object) => events$.next({ seq: ++seq, session: SESSION, cycle: seq, at: 0, ...body } as AgentEvent);
  const plan = { kind: 'plan', goalId: 'goal-1', planId: 'plan-1', attempt: 0, strategy: 'Knowledge', order: 'explore-first', status: 'Active', departures: 0 };
  publish({ ...plan, change: 'created', reason: 'made', steps: [{ index: 0, tool: 'kg_query', status: 'Active', rationale: 'gather knowledge' }, { index: 1, tool: 'reason', status: 'Pending', rationale: 'reason over it' }] });
  publish({ ...plan, change: 'step', step: 0, reason: 'kg_query: 3 facts', steps: [{ index: 0, tool: 'kg_query', status: 'Completed' }, { index: 1, tool: 'reason', status: 'Active' }] });
  publish({ kind: 'question', questionId: 'question-1', goalId: 'goal-1', text: 'Which moon first?', timeoutMs: 30000, status: 'asked' });
  publish({ kind: 'question', questionId: 'question-1', goalId: 'goal-1', text: 'Which moon first?', timeoutMs: 30000, status: 'answered', answer: 'Phobos' });
  publish({ kind: 'question', questionId: 'question-2', goalId: 'goal-1', text: 'How far?', timeoutMs: 5000, status: 'asked' });
  publish({ kind: 'reflection', number: 3, trigger: 'interval', cycles: 5, pressure: 0.42, tools: [{ tool: 'kg_query', runs: 2, ok: 1, rate: 0.5 }], adjustments: [{ kind: 'boost', goalId: 'goal-1', from: 128, to: 138, reason: 'added knowledge' }] });
  for (let i = 0; i < 150; i++) publish({ kind: 'heartbeat', beat: i });

  const read = async () => {
    await page.locator('[data-testid=plan]').waitFor({ timeout: 10_000 });
    await page.locator('#reflection li').waitFor({ timeout: 10_000 });
    return page.evaluate(() => ({
      plan: document.querySelector('[data-goal-id=goal-1] [data-testid=plan]')!.textContent,
      steps: [...document.querySelectorAll<HTMLElement>('[data-testid=plan] .step')].map((step) => step.title),
      questions: [...document.querySelectorAll<HTMLElement>('#questions .question')].map((q) => `${q.dataset.status}: ${q.querySelector('.text')!.textContent} ${q.querySelector('.text + span')!.textContent}`),
      open: document.getElementById('question-count')!.textContent,
      reflection: document.getElementById('reflection')!.innerText.split('\n').filter(Boolean),
    }));
  };
  const shown = await read();
  t.deepEqual(shown, {
    plan: 'plan 1 · Knowledge, explore-first: ✓kg_query → ▸reason',
    steps: ['Completed: gather knowledge', 'Active: reason over it'],
    questions: ['asked: How far? waiting for an answer (times out after 5 s)', 'answered: Which moon first? answer: Phobos'],
    open: '1 open',
    reflection: ['#3 at cycle 6 (interval, over 5 cycles) · pressure 42%', 'Find moons of Mars boosted 128 → 138: added knowledge', 'kg_query 1/2 ok'],
  });

  await page.reload();
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  t.deepEqual(await read(), shown, 'after a reload, the same, the steps\' rationales too (the plan\'s first event, which carries them, is replayed before its latest)');

  publish({ ...plan, status: 'Completed', change: 'completed', reason: 'done', steps: [{ index: 0, tool: 'kg_query', status: 'Completed' }, { index: 1, tool: 'reason', status: 'Completed' }] });
  await page.locator('[data-testid=plan]').waitFor({ state: 'detached', timeout: 10_000 });
  t.pass('a plan that ended is no longer shown');
});
