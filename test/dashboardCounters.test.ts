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
import { launch, TOKEN } from './helpers/dashboardPage.js';

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
