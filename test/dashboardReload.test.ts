import test from 'ava';
import { Subject } from 'rxjs';
import { Mind } from '../mind/mind.js';
import { Planner } from '../mind/planner.js';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import { fromWebSocket } from '../sources/wsInput.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import type { Stimulus } from '../streams/signals.js';
import { agentSnapshot } from '../streams/snapshot.js';
import { goalStimulus, stimulus } from '../streams/testing.js';
import type { Snapshot } from '../streams/wsProtocol.js';
import { emptySnapshot, launch, pageOnQuietServer, TOKEN } from './helpers/dashboardPage.js';

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
  publish({ kind: 'question', questionId: 'question-2', goalId: 'goal-1', text: 'How far?', timeoutMs: 60_000, status: 'asked' });
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
    questions: ['asked: How far? waiting for an answer (times out after 60 s)', 'answered: Which moon first? answer: Phobos'],
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

test('in Chromium: a goal\'s active plan made before the agent restarted from its saved state is shown under the goal, its steps\' rationales too', async (t) => {
  // The first run plans, and is paused (its plan stays active), saved and stopped.
  const first = createAgent({ session: 'dash-plan-before', config: { heartbeatMs: 0, stallThreshold: 1_000_000 } });
  t.teardown(() => void first.stop());
  const input$ = new Subject<Stimulus>();
  const firstEvents$ = first.run({ inputs: [input$], keepAlive: true });
  let paused!: () => void;
  const isPaused = new Promise<void>((resolve) => (paused = resolve));
  firstEvents$.subscribe((event) => {
    if (event.kind === 'plan' && event.change === 'created') input$.next(stimulus({ type: 'command', command: 'pause' }));
    if (event.kind === 'command' && event.command === 'pause') paused();
  });
  firstEvents$.connect();
  input$.next(goalStimulus('Find moons and orbits of planet 3', { criteria: 'zzqx', priority: 200 }));
  await isPaused;
  const saved = first.mind.toJSON();
  await first.stop();
  const made = Planner.attach(Mind.fromJSON(saved)).plans().find((p) => p.status === 'Active')!;
  t.truthy(made, 'the saved mind holds an active plan');

  // The next run resumes that state, paused: its own events (and so the replay) hold no plan event.
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const agent = createAgent({ session: 'dash-plan-before', mind: Mind.fromJSON(saved, { config: first.mind.config }), config: { heartbeatMs: 0 } });
  t.teardown(() => void agent.stop());
  const events$ = agent.run({ live: [fromWebSocket(server, { commands: agent.runtime.commands })], keepAlive: true });
  events$.subscribe(toWebSocket(server, { snapshot: () => agentSnapshot(agent.mind, agent.session) }));
  events$.connect();
  const page = await (await launch(t)).newPage();
  await page.goto(server.url);
  const line = page.locator(`[data-goal-id=${made.goalId}] [data-testid=plan]`);
  await line.waitFor({ timeout: 10_000 });
  t.is(await line.getAttribute('data-plan-id'), made.id);
  t.deepEqual(
    await line.locator('.step').evaluateAll((steps) => steps.map((step) => step.getAttribute('title'))),
    made.steps.map((step) => `${step.status}: ${step.rationale}`),
  );
});
