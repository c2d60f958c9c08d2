import test from 'ava';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import { fromWebSocket } from '../sources/wsInput.js';
import { Mind } from '../mind/mind.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { agentSnapshot } from '../streams/snapshot.js';
import { goalStimulus } from '../streams/testing.js';
import type { Stimulus } from '../streams/signals.js';
import { Subject } from 'rxjs';
import { launch, pageOnQuietServer, TOKEN } from './helpers/dashboardPage.js';

test('in Chromium: a question the agent asks can be answered from the page; it then shows as answered and its goal completes', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const agent = createAgent({ session: 'dash-questions', config: { heartbeatMs: 0 } });
  t.teardown(() => void agent.stop());
  const events$ = agent.run({ live: [fromWebSocket(server, { commands: agent.runtime.commands })], keepAlive: true });
  const inputs: AgentEvent[] = [];
  events$.subscribe((event) => event.kind === 'input' && inputs.push(event));
  events$.subscribe(toWebSocket(server, { snapshot: () => agentSnapshot(agent.mind, agent.session) }));
  events$.connect();
  const page = await (await launch(t)).newPage();
  await page.goto(`${server.url}#token=${TOKEN}`);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });

  await page.fill('#goal-description', 'Ask the user a question about their favourite colour');
  await page.fill('#goal-criteria', 'favourite colour');
  await page.click('#goal-form button[type=submit]');
  const question = page.locator('#questions .question').first();
  await question.locator('.answer-form').waitFor({ timeout: 10_000 });
  t.is(await page.locator('#question-count').textContent(), '1 open');
  const questionId = await question.getAttribute('data-question-id');

  await question.getByLabel(/^answer to: /).fill('My favourite colour is a deep blue.');
  await question.getByRole('button', { name: 'Answer' }).click();
  await page.locator('#questions .question[data-status=answered]').waitFor({ timeout: 10_000 });
  t.is(await page.locator('#questions .question .answer').textContent(), 'answer: My favourite colour is a deep blue.');
  t.like(inputs[0], { text: 'My favourite colour is a deep blue.', replyTo: questionId! });
  t.is(await page.locator('#question-count').textContent(), '');
  await page.locator('[data-testid=goal-tree] .goal[data-status=Completed]', { hasText: 'favourite colour' }).waitFor({ timeout: 10_000 });
});

test('in Chromium: by keyboard, a question answered (or timed out) while its field has the focus keeps the focus on its item, not dropping it to the page', async (t) => {
  const { server, page, events$ } = await pageOnQuietServer(t, {}, 'dash-question-focus', `#token=${TOKEN}`);
  server.onSignal(() => ({ ok: true, signal: 'input' }));
  const question = (seq: number, n: number, status: 'asked' | 'answered' | 'expired') =>
    ({ kind: 'question', seq, session: 'dash-question-focus', cycle: seq, at: 0, questionId: `question-${n}`, goalId: `goal-${n}`, text: `Which moon ${n}?`, timeoutMs: 60_000, status, ...(status === 'answered' ? { answer: 'Phobos' } : {}) }) as AgentEvent;
  events$.next(question(1, 1, 'asked'));
  events$.next(question(2, 2, 'asked'));
  const field = (n: number) => page.getByLabel(`answer to: Which moon ${n}?`);
  await field(2).waitFor({ timeout: 10_000 });
  const focused = () => page.evaluate(() => document.activeElement!.closest('.question')?.getAttribute('data-question-id') ?? document.activeElement!.tagName);

  await field(1).focus();
  await page.keyboard.type('Phobos');
  await page.keyboard.press('Enter');
  await page.locator('.toast', { hasText: 'accepted' }).waitFor({ timeout: 10_000 });
  events$.next(question(3, 1, 'answered'));
  await page.locator('.question[data-question-id=question-1][data-status=answered]').waitFor({ timeout: 10_000 });
  t.is(await focused(), 'question-1', 'answered: on its item');

  await field(2).focus();
  events$.next(question(4, 2, 'expired'));
  await page.locator('.question[data-question-id=question-2][data-status=expired]').waitFor({ timeout: 10_000 });
  t.is(await focused(), 'question-2', 'timed out: on its item');
});

test('in Chromium: a question asked before the agent restarted from its saved state is shown waiting, and can be answered from the page', async (t) => {
  // The first run asks, and is saved and stopped while the question waits.
  const first = createAgent({ session: 'dash-asked-before', config: { heartbeatMs: 0 } });
  t.teardown(() => void first.stop());
  const input$ = new Subject<Stimulus>();
  const firstEvents$ = first.run({ inputs: [input$], keepAlive: true });
  const asked = new Promise<void>((resolve) => firstEvents$.subscribe((event) => event.kind === 'question' && resolve()));
  firstEvents$.connect();
  input$.next(goalStimulus('Ask the user a question about their favourite colour', { criteria: 'favourite colour', priority: 200 }));
  await asked;
  const saved = first.mind.toJSON();
  await first.stop();

  // The next run resumes that state: its own events (and so the replay) hold no question event.
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const agent = createAgent({ session: 'dash-asked-before', mind: Mind.fromJSON(saved), config: { heartbeatMs: 0 } });
  t.teardown(() => void agent.stop());
  const events$ = agent.run({ live: [fromWebSocket(server, { commands: agent.runtime.commands })], keepAlive: true });
  events$.subscribe(toWebSocket(server, { snapshot: () => agentSnapshot(agent.mind, agent.session) }));
  events$.connect();
  const page = await (await launch(t)).newPage();
  await page.goto(`${server.url}#token=${TOKEN}`);
  const question = page.locator('#questions .question').first();
  await question.locator('.answer-form').waitFor({ timeout: 10_000 });
  t.is(await question.getAttribute('data-question-id'), 'question-1');
  t.is(await page.locator('#question-count').textContent(), '1 open');
  await question.getByLabel('answer to: Ask the user a question about their favourite colour?').fill('My favourite colour is a deep blue.');
  await question.getByRole('button', { name: 'Answer' }).click();
  await page.locator('#questions .question[data-status=answered]').waitFor({ timeout: 10_000 });
  await page.locator('[data-testid=goal-tree] .goal[data-status=Completed]', { hasText: 'favourite colour' }).waitFor({ timeout: 10_000 });
});
