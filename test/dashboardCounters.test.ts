import test from 'ava';
import { Subject } from 'rxjs';
import { defaultMindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { memoryRecall } from '../mind/tools/memoryRecall.js';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import type { Stimulus } from '../streams/signals.js';
import { agentSnapshot } from '../streams/snapshot.js';
import { goalStimulus } from '../streams/testing.js';
import { emptySnapshot, launch, pageOnQuietServer, TOKEN } from './helpers/dashboardPage.js';

test('in Chromium: the episode count follows the agent when memory_recall consolidates, which it does without a consolidation event', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  // memory_recall alone, consolidating as soon as memory holds anything; no consolidation stage after act.
  const mind = new Mind({ config: { ...defaultMindConfig(), autoConsolidate: false, consolidationPressure: 0.05 }, tools: [memoryRecall] });
  const agent = createAgent({ session: 'dash-episodes', mind, config: { heartbeatMs: 0 } });
  t.teardown(() => void agent.stop());
  const input$ = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [input$], keepAlive: true });
  const kinds: string[] = [];
  events$.subscribe((event: AgentEvent) => kinds.push(event.kind));
  events$.subscribe(toWebSocket(server, { snapshot: () => agentSnapshot(agent.mind, agent.session) }));
  const browser = await launch(t);
  events$.connect();
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.locator('#session', { hasText: 'dash-episodes' }).waitFor({ timeout: 10_000 });

  // memory_recall cannot finish the goal (or the sub-goals reflection may split it into): they stall and fail, and the agent goes idle.
  input$.next(goalStimulus('Recall what happened to the moons of Mars', { priority: 200 }));
  await page.locator('[data-testid=goal-tree] .goal[data-goal-id=goal-1][data-status=Failed]').waitFor({ timeout: 10_000 });
  const unfinished = () => mind.goals.all().filter((goal) => goal.status === 'Active' || goal.status === 'Suspended').length;
  for (let tries = 0; tries < 100 && unfinished() > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(unfinished(), 0, 'the agent is idle');
  t.true(mind.episodes.size > 0, 'memory_recall made episodes');
  t.false(kinds.includes('consolidation'), 'no consolidation event told the page');
  const shown = () => page.evaluate(() => document.getElementById('episodes')!.textContent);
  for (let tries = 0; tries < 50 && (await shown()) !== String(mind.episodes.size); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(await shown(), String(mind.episodes.size));
});

test('in Chromium: under a flood of events that leave the header as it is, nothing in it is written again: the session id a user selected stays selected, and a new fact changes the fact count alone', async (t) => {
  const session = 'dash-header-flood';
  const { page, events$ } = await pageOnQuietServer(t, {}, session, '', () => ({ ...emptySnapshot(session), cycle: 5, facts: 3, episodes: 2 }));
  await page.locator('#session', { hasText: session }).waitFor({ timeout: 10_000 });
  // The user selects the session id (to copy it); each change to the header's values from now on is recorded, by the id of what changed.
  await page.evaluate(() => {
    getSelection()!.selectAllChildren(document.getElementById('session')!);
    const changes: string[] = [];
    (window as unknown as { headerChanges: string[] }).headerChanges = changes;
    for (const id of ['session', 'cycle', 'facts', 'episodes', 'paused']) {
      new MutationObserver((records) => changes.push(...records.map(() => id))).observe(document.getElementById(id)!, { childList: true, characterData: true, attributes: true, subtree: true });
    }
  });
  // Thousands of events that change nothing the header shows, in bursts; the memory gauge shows when the page has drawn each.
  let seq = 1;
  const header = () => ({ seq: seq++, session, cycle: 5, at: seq });
  for (let burst = 1; burst <= 20; burst++) {
    for (let i = 0; i < 150; i++) events$.next({ kind: 'heartbeat', ...header(), beat: seq } as AgentEvent);
    events$.next({ kind: 'orientation', ...header(), goalId: 'goal-1', adjacentTriples: 0, activated: [], episodeKnowledge: [], pressure: burst / 100 } as AgentEvent);
    await page.locator('#memory-text', { hasText: new RegExp(`^${burst} / 100 entries$`) }).waitFor({ timeout: 10_000 });
  }
  events$.next({ kind: 'fact', ...header(), subject: 'Mars', predicate: 'has moon', object: 'Phobos', added: true } as AgentEvent);
  await page.locator('#facts', { hasText: /^4$/ }).waitFor({ timeout: 10_000 });
  t.deepEqual(await page.evaluate(() => (window as unknown as { headerChanges: string[] }).headerChanges), ['facts'], 'only the fact count was written');
  t.is(await page.evaluate(() => getSelection()!.toString()), session, 'the session id is still selected');
});
