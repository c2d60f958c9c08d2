import test, { type ExecutionContext } from 'ava';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import { fromWebSocket } from '../sources/wsInput.js';
import { Mind } from '../mind/mind.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { agentSnapshot } from '../streams/snapshot.js';
import { goalStimulus } from '../streams/testing.js';
import type { Stimulus } from '../streams/signals.js';
import { asyncScheduler, Subject, type SchedulerLike } from 'rxjs';
import { launch, pageOnQuietServer, toastText, TOKEN } from './helpers/dashboardPage.js';

/**
 * A live agent behind a dashboard page, asked from the page for a goal that
 * makes it ask the user a question; resolves once the question's answer
 * field shows. The agent runs on `scheduler` (real time by default).
 */
async function questionAsked(t: ExecutionContext, session: string, scheduler: SchedulerLike = asyncScheduler) {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const agent = createAgent({ session, scheduler, config: { heartbeatMs: 0 } });
  t.teardown(() => void agent.stop());
  const events$ = agent.run({ live: [fromWebSocket(server, { commands: agent.runtime.commands })], keepAlive: true });
  const inputs: AgentEvent[] = [];
  events$.subscribe((event) => event.kind === 'input' && inputs.push(event));
  events$.subscribe(toWebSocket(server, { snapshot: () => agentSnapshot(agent.mind, agent.session, { now: scheduler.now() }) }));
  events$.connect();
  const page = await (await launch(t)).newPage();
  await page.goto(`${server.url}#token=${TOKEN}`);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  await page.fill('#goal-description', 'Ask the user a question about their favourite colour');
  await page.fill('#goal-criteria', 'favourite colour');
  await page.click('#goal-form button[type=submit]');
  const question = page.locator('#questions .question').first();
  await question.locator('.answer-form').waitFor({ timeout: 10_000 });
  return { page, question, inputs };
}

test('in Chromium: a question the agent asks can be answered from the page; it then shows as answered and its goal completes', async (t) => {
  const { page, question, inputs } = await questionAsked(t, 'dash-questions');
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

/** A question event of `session` at scheduler time `at` (far from the browser's clock: 1970). */
const questionAt = (session: string, seq: number, at: number, timeoutMs: number) =>
  ({ kind: 'question', seq, session, cycle: seq, at, questionId: 'question-1', goalId: 'goal-1', text: 'Which moon?', timeoutMs, status: 'asked' }) as AgentEvent;
const heartbeatAt = (session: string, seq: number, at: number) => ({ kind: 'heartbeat', seq, session, cycle: seq, at, beat: seq }) as AgentEvent;

test('in Chromium: a waiting question shows as timed out, with no field to answer it, once a later event\'s time passes its deadline, before the agent says it expired', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, 'dash-question-deadline');
  events$.next(questionAt('dash-question-deadline', 1, 1000, 60_000));
  const question = page.locator('#questions .question[data-question-id=question-1]');
  await question.locator('.answer-form').waitFor({ timeout: 10_000 });
  t.is(await question.getAttribute('data-status'), 'asked', 'waiting: the agent\'s clock (1 s) is not the browser\'s');
  t.is(await page.locator('#question-count').textContent(), '1 open');

  events$.next(heartbeatAt('dash-question-deadline', 2, 30_000));
  events$.next(heartbeatAt('dash-question-deadline', 3, 61_000));
  await page.locator('#questions .question[data-status=expired]').waitFor({ timeout: 10_000 });
  t.is(await question.locator('.expired').textContent(), 'timed out after 60 s');
  t.is(await question.locator('.answer-form').count(), 0, 'it can no longer be answered');
  t.is(await page.locator('#question-count').textContent(), '');
});

test('in Chromium: a waiting question with no event after it shows as timed out once its time limit has run on the page since the agent\'s last event', async (t) => {
  const { page, events$ } = await pageOnQuietServer(t, {}, 'dash-question-idle');
  events$.next(questionAt('dash-question-idle', 1, 1000, 1500));
  await page.locator('#questions .question[data-status=expired]').waitFor({ timeout: 10_000 });
  t.is(await page.locator('#questions .answer-form').count(), 0);
});

test('in Chromium: a question from the snapshot (asked before a restart) shows as timed out once an event\'s time passes the deadline the snapshot gives it', async (t) => {
  const mind = new Mind();
  mind.questions.ask({ id: 'question-1', goalId: 'goal-1', text: 'Which moon?', askedAt: 1000, timeoutMs: 60_000 });
  const { page, events$ } = await pageOnQuietServer(t, {}, 'dash-question-snapshot', '', () => agentSnapshot(mind, 'dash-question-snapshot'));
  await page.locator('#questions .question .answer-form').waitFor({ timeout: 10_000 });
  events$.next(heartbeatAt('dash-question-snapshot', 1, 61_000));
  await page.locator('#questions .question[data-status=expired]').waitFor({ timeout: 10_000 });
  t.is(await page.locator('#questions .answer-form').count(), 0);
});

test('in Chromium: a question from the snapshot whose deadline had passed on the agent\'s clock when the snapshot was read shows as timed out at once, with no event after it', async (t) => {
  const mind = new Mind();
  mind.questions.ask({ id: 'question-1', goalId: 'goal-1', text: 'Which moon?', askedAt: 1000, timeoutMs: 60_000 });
  mind.questions.ask({ id: 'question-2', goalId: 'goal-1', text: 'Which planet?', askedAt: 50_000, timeoutMs: 60_000 });
  const session = 'dash-question-snapshot-time';
  const { page } = await pageOnQuietServer(t, {}, session, '', () => agentSnapshot(mind, session, { now: 61_000 }));
  await page.locator('#questions .question[data-question-id=question-1][data-status=expired]').waitFor({ timeout: 10_000 });
  t.is(await page.locator('#questions .question[data-question-id=question-2][data-status=asked] .answer-form').count(), 1, 'the other is still open');
});

test('in Chromium: an answer submitted once the question\'s deadline has passed on the agent\'s clock, before the page has redrawn it as timed out, is not sent: the page says so and shows it timed out', async (t) => {
  const session = 'dash-question-late-page';
  const { server, page, events$ } = await pageOnQuietServer(t, {}, session, `#token=${TOKEN}`);
  const sent: string[] = [];
  server.onSignal((request) => {
    const { type } = request.signal as { type: string };
    sent.push(type);
    return { ok: true, signal: type };
  });
  events$.next(questionAt(session, 1, 1000, 60_000));
  await page.getByLabel('answer to: Which moon?').fill('Phobos');
  // The page's clock moves past the deadline and the answer is submitted at once, in the same task: no redraw comes between.
  await page.evaluate(() => {
    const now = performance.now.bind(performance);
    performance.now = () => now() + 60_000;
    document.querySelector<HTMLFormElement>('#questions .answer-form')!.requestSubmit();
  });
  // A command sent after it is answered after anything sent before it.
  await page.click('[data-command=pause]');
  await page.locator('.toast', { hasText: 'pause: accepted' }).waitFor({ timeout: 10_000 });
  t.deepEqual(sent, ['command'], 'the answer was not sent');
  t.is(await toastText(page, 'answer to'), 'answer to "Which moon?": not sent: the question has timed out (the agent no longer takes answers to it)');
  await page.locator('#questions .question[data-question-id=question-1][data-status=expired]').waitFor({ timeout: 10_000 });
  t.is(await page.locator('#questions .answer-form').count(), 0);
});

test('in Chromium: an answer the agent reads after the question\'s deadline (its clock ahead of what the page knows) is named in a toast as too late, not left at "accepted"', async (t) => {
  // The agent's clock, which the test moves ahead: the page knows it only from the events' time.
  let ahead = 0;
  const scheduler: SchedulerLike = { now: () => asyncScheduler.now() + ahead, schedule: asyncScheduler.schedule.bind(asyncScheduler) };
  const { page, question } = await questionAsked(t, 'dash-question-late-agent', scheduler);

  ahead = 61_000;
  await question.getByLabel(/^answer to: /).fill('My favourite colour is a deep blue.');
  await question.getByRole('button', { name: 'Answer' }).click();
  // The toasts as the question first shows as timed out (the agent expires it as the answer comes in, then warns that the answer named no pending question).
  const toasts = await page.waitForFunction(
    () => document.querySelector('.question[data-question-id=question-1][data-status=expired]') && [...document.querySelectorAll('.toast')].map((toast) => toast.textContent),
    undefined,
    { timeout: 10_000 },
  );
  t.true((await toasts.jsonValue())!.includes('answer to "Ask the user a question about their favourite colour?": too late: the question had timed out when the agent read the answer (it kept the answer as plain input)'), String(await toasts.jsonValue()));
});

test('agentSnapshot sends the agent\'s time it is given as `at`, none without it, and refuses one that is no finite number', (t) => {
  const mind = new Mind();
  t.is(agentSnapshot(mind, 's', { now: 1234 }).at, 1234);
  t.false('at' in agentSnapshot(mind, 's'));
  t.throws(() => agentSnapshot(mind, 's', { now: Number.NaN }), { instanceOf: TypeError, message: "agentSnapshot now: expected the scheduler's time (a finite number), got NaN" });
});
