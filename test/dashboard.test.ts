import test, { type ExecutionContext } from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import { Subject } from 'rxjs';
import { z } from 'zod';
import { defaultMindConfig, type MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import type { Tool } from '../mind/tool.js';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer, type WsClient, type WsServerOptions } from '../sinks/wsServer.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { packageRoot } from '../streams/packageRoot.js';
import type { Stimulus } from '../streams/signals.js';
import { agentSnapshot } from '../streams/snapshot.js';
import { goalStimulus, stimulus } from '../streams/testing.js';
import type { Snapshot } from '../streams/wsProtocol.js';
import { emptySnapshot, launch, pageOnQuietServer, toastText, TOKEN } from './helpers/dashboardPage.js';

const root = packageRoot();

interface Agent {
  process: ChildProcess;
  url: string;
  session: string;
  exited: Promise<number | null>;
}

/**
 * `ooda run --ws PORT` with no goals, over the demo knowledge or, given
 * `stdin`, over those lines instead; resolves once it prints the dashboard address.
 */
async function startAgent(t: ExecutionContext, port: number, session: string, stdin?: string[]): Promise<Agent> {
  const input = stdin ? [] : ['--kg', 'demo/knowledge.ndjson', '--no-stdin'];
  const child = spawn(
    process.execPath,
    ['--import=tsx', 'bin/ooda.ts', 'run', '--ws', String(port), '--token', TOKEN, ...input, '--no-db', '--heartbeat', '0', '--pace', '20', '--session', session],
    { cwd: root, stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] },
  );
  if (stdin) child.stdin!.end(stdin.map((line) => `${line}\n`).join(''));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Stopped after the test, whatever happens in it: a test failing early (no browser) must not leave its agent running.
  t.teardown(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    await exited;
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      stderr += String(chunk);
      const match = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`agent exited (${code}) before listening:\n${stderr}`)));
  });
  return { process: child, url, session, exited };
}

test('the dashboard ports the breakdown format of mind/utility.ts exactly', (t) => {
  const pattern = (source: string) => /\/(\^\\\[score=.*\\\]\$)\//.exec(source)?.[1];
  const dashboard = pattern(readFileSync(join(root, 'dashboard', 'breakdown.js'), 'utf8'));
  t.truthy(dashboard);
  t.is(dashboard, pattern(readFileSync(join(root, 'mind', 'utility.ts'), 'utf8')));
});

test('in Chromium: add a goal from the page, see it in the goal tree and its decision with a breakdown; reconnects after a restart', async (t) => {
  const first = await startAgent(t, 0, 'dash-1');
  const browser = await launch(t);
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
  await page.goto(`${first.url}#token=${TOKEN}`);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  // The connection is live on open; the session shows once the snapshot that follows is rendered.
  await page.locator('#session', { hasText: 'dash-1' }).waitFor({ timeout: 10_000 });
  t.is(await page.locator('#session').textContent(), 'dash-1');
  t.is(await page.locator('#token').inputValue(), TOKEN, 'the token comes from the #token= link');
  t.deepEqual(await page.locator('#legend span').allTextContents(), ['base', 'recency', 'novelty', 'episodic', 'pressure', 'archetype', 'plan'], 'the legend names every bar drawn');

  await page.fill('#goal-description', 'Find moons of Mars');
  await page.fill('#goal-priority', '200');
  await page.click('#goal-form button[type=submit]');
  const goal = page.locator('[data-testid=goal-tree] .goal', { hasText: 'Find moons of Mars' });
  await goal.waitFor({ timeout: 10_000 });
  // Reflection may boost or demote the goal by the time the tree is read: the priority sent is the one it was added with (frames hold an event or an array of them).
  const added = frames.flatMap((frame) => JSON.parse(frame)).find((m) => m.kind === 'goal' && m.change === 'added' && m.description === 'Find moons of Mars');
  t.is(added?.priority, 200);
  await page.locator('.toast', { hasText: 'goal "Find moons of Mars": accepted' }).waitFor({ timeout: 10_000 });

  const decision = page.locator('[data-testid=decision]').first();
  await decision.waitFor({ timeout: 10_000 });
  // Read one card in one go: new decisions keep arriving and re-render the list.
  const card = await decision.evaluate((node) => ({
    tool: node.querySelector('.tool')!.textContent!,
    score: Number(node.querySelector('.score')!.textContent),
    labels: [...node.querySelectorAll('.bars .label')].map((l) => l.textContent!),
    values: [...node.querySelectorAll('.bars .value')].map((v) => Number(v.textContent!.replace('−', '-'))),
  }));
  t.deepEqual(card.labels.slice(0, 6), ['base', 'recency', 'novelty', 'episodic', 'pressure', 'archetype']);
  t.is(Math.round(card.values.reduce((a, b) => a + b, 0) * 100) / 100, card.score, `${card.tool}: the bars add up to the score`);
  const baseWidth = await decision.locator('.bar[data-part=base]').evaluate((bar) => (bar as HTMLElement).style.width);
  t.true(parseFloat(baseWidth) > 0, 'the base bar is drawn');

  // The agent restarts on the same port: the page reconnects and shows the new session.
  const port = Number(new URL(first.url).port);
  first.process.kill('SIGINT');
  await first.exited;
  await page.locator('#conn[data-state="down"]').waitFor({ timeout: 10_000 });
  // Later attempts fail without a reason (1006): the stop reason stays until a connection succeeds.
  await page.locator('#conn-text', { hasText: 'retrying in 2.0s' }).waitFor({ timeout: 10_000 });
  t.is(await page.locator('#conn-text').textContent(), 'agent stopped · retrying in 2.0s');
  await startAgent(t, port, 'dash-2');
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 15_000 });
  await page.locator('#session', { hasText: 'dash-2' }).waitFor({ timeout: 10_000 });
  t.is(await page.locator('[data-testid=goal-tree] .goal').count(), 0, 'the new agent has no goals yet');
  t.deepEqual(pageErrors, []);
});

/** The snapshot a new WebSocket client of `agent` receives. */
async function snapshotOf(agent: Agent): Promise<any> {
  const ws = new WebSocket(`${agent.url.replace('http', 'ws')}ws`);
  try {
    const [data] = (await once(ws, 'message')) as [Buffer];
    return JSON.parse(String(data));
  } finally {
    ws.terminate();
  }
}

test('in Chromium: the counters match the snapshot; replayed events it already includes are not counted again', async (t) => {
  const fact = (object: string) => JSON.stringify({ type: 'fact', subject: 'Mars', predicate: 'has moon', object });
  const agent = await startAgent(t, 0, 'dash-counts', [fact('Phobos'), fact('Deimos'), fact('Ares'), '{"type":"command","command":"consolidate"}']);
  const browser = await launch(t);
  let snapshot = await snapshotOf(agent);
  for (let tries = 0; snapshot.facts < 3 && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    snapshot = await snapshotOf(agent);
  }
  t.is(snapshot.facts, 3);
  const page = await browser.newPage();
  for (const load of [() => page.goto(agent.url), () => page.reload()]) {
    await load();
    await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
    await page.locator('#session', { hasText: 'dash-counts' }).waitFor({ timeout: 10_000 });
    // The replay frame follows the snapshot: let the page apply it and render.
    await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
    t.is(await page.locator('#facts').textContent(), String(snapshot.facts));
    t.is(await page.locator('#episodes').textContent(), String(snapshot.episodes));
    t.is(await page.locator('.toast').count(), 0, 'the replayed consolidate command is not announced again');
  }
});

/** A page live on a quiet server (see pageOnQuietServer), recording each change of its connection status from then on, as `state: text`, in `window.connStates`. */
async function watchedQuietPage(t: ExecutionContext, options: Partial<WsServerOptions>, session: string): Promise<Page> {
  const { page } = await pageOnQuietServer(t, options, session);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  await page.locator('#session', { hasText: session }).waitFor({ timeout: 10_000 });
  await page.evaluate(() => {
    const conn = document.getElementById('conn')!;
    const seen: string[] = ((window as any).connStates = []);
    new MutationObserver(() => seen.push(`${conn.dataset.state}: ${conn.textContent}`)).observe(conn, { attributes: true, subtree: true, childList: true, characterData: true });
  });
  return page;
}

test('in Chromium: a server that sends nothing, not even keepalives, shows as stale until data flows again', async (t) => {
  // Stale after 2.5 intervals without data: 2.5 s, wide enough for a loaded machine's late timers (at 400 ms, 1 s was not).
  const page = await watchedQuietPage(t, { keepaliveMs: 1000 }, 'frozen');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  t.deepEqual(await page.evaluate(() => (window as any).connStates), [], 'keepalives keep a quiet connection live');
  // Freeze this process (the server) for 4 s, as SIGSTOP would; the browser runs on.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  const states: string[] = await page.evaluate(() => (window as any).connStates);
  t.true(states.some((s) => /^stale: stale · no data for \d+s$/.test(s)), states.join('\n'));
  t.regex(states.at(-1)!, /^live: live$/);
});

test('in Chromium: with keepaliveMs 0 a quiet connection never shows as stale: the server says so as the page connects', async (t) => {
  const page = await watchedQuietPage(t, { keepaliveMs: 0 }, 'quiet');
  // Longer than the 2.5 default intervals (12.5 s) the page assumed before the server told it.
  await new Promise((resolve) => setTimeout(resolve, 13_500));
  t.deepEqual(await page.evaluate(() => (window as any).connStates), []);
  t.is(await page.locator('#conn').getAttribute('data-state'), 'live');
});

test('in Chromium: the add-goal form sends an empty priority as the default, names a bad one, and clears once accepted', async (t) => {
  const agent = await startAgent(t, 0, 'dash-form');
  const browser = await launch(t);
  const page = await browser.newPage();
  const sent: any[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(JSON.parse(String(frame.payload)).signal)));
  await page.goto(`${agent.url}#token=${TOKEN}`);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  const form = () => page.evaluate(() => ['goal-description', 'goal-criteria', 'goal-priority'].map((id) => (document.getElementById(id) as HTMLInputElement).value));

  await page.fill('#goal-description', 'Find moons of Mars');
  await page.fill('#goal-priority', '');
  await page.click('#goal-form button[type=submit]');
  await page.locator('.toast', { hasText: 'goal "Find moons of Mars": accepted' }).waitFor({ timeout: 10_000 });
  await page.locator('[data-testid=goal-tree] .goal', { hasText: 'Find moons of Mars' }).waitFor({ timeout: 10_000 });
  t.deepEqual(sent, [{ type: 'goal', description: 'Find moons of Mars' }], 'an empty priority is left to the agent (128)');

  for (const bad of ['300', '12.5']) {
    await page.fill('#goal-description', 'Find moons of Jupiter');
    await page.fill('#goal-criteria', 'knows Io');
    await page.fill('#goal-priority', bad);
    await page.click('#goal-form button[type=submit]');
    await page.locator('.toast.error', { hasText: 'priority must be a whole number from 0 to 255' }).first().waitFor({ timeout: 5_000 });
    t.deepEqual(await form(), ['Find moons of Jupiter', 'knows Io', bad], `${bad}: kept for correcting`);
  }
  t.is(sent.length, 1, 'the bad attempts sent nothing');
  await page.fill('#goal-priority', '7');
  await page.click('#goal-form button[type=submit]');
  await page.locator('.toast', { hasText: 'goal "Find moons of Jupiter": accepted' }).waitFor({ timeout: 10_000 });
  t.deepEqual(sent[1], { type: 'goal', description: 'Find moons of Jupiter', criteria: 'knows Io', priority: 7 });
  t.deepEqual(await form(), ['', '', ''], 'cleared once accepted');
});

test('in Chromium: an alert for rejected input names its source and line, as the pretty log does', async (t) => {
  const agent = await startAgent(t, 0, 'dash-rejected', ['{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}', 'not json here']);
  const browser = await launch(t);
  const page = await browser.newPage();
  await page.goto(agent.url);
  const alert = page.locator('.alert[data-kind=rejected]');
  await alert.waitFor({ timeout: 10_000 });
  t.regex((await alert.textContent())!, /^#\d+rejected stdin:2: not JSON: /);
});

test('in Chromium: a goal too long for one frame is refused before sending, naming its size; the connection stays live', async (t) => {
  const agent = await startAgent(t, 0, 'dash-long');
  const browser = await launch(t);
  const page = await browser.newPage();
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));
  await page.goto(`${agent.url}#token=${TOKEN}`);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });

  // 70,000 characters, and 40,000 × 'é' (80,000 bytes in UTF-8): both over 64 KiB.
  for (const [description, atLeast] of [['x'.repeat(70_000), 70_000], ['é'.repeat(40_000), 80_000]] as const) {
    await page.fill('#goal-description', description);
    await page.click('#goal-form button[type=submit]');
    const refusal = page.locator('.toast.error', { hasText: 'goal too long' }).first();
    await refusal.waitFor({ timeout: 5_000 });
    const bytes = Number(/^goal too long: (\d+) bytes, the limit is 65536$/.exec((await refusal.textContent())!)?.[1]);
    t.true(bytes > atLeast, `${bytes} bytes`);
    t.is(await page.locator('#goal-description').inputValue(), description, 'kept for correcting');
    await refusal.evaluate((node) => node.remove());
  }
  t.deepEqual(sent, [], 'nothing was sent');
  t.is(await page.locator('#conn').getAttribute('data-state'), 'live');

  await page.fill('#goal-description', 'Find moons of Mars');
  await page.click('#goal-form button[type=submit]');
  await page.locator('.toast', { hasText: 'goal "Find moons of Mars": accepted' }).waitFor({ timeout: 10_000 });
});

test('in Chromium: when the server closes with 1009 (a frame over its limit), the page says so in a toast', async (t) => {
  const { page } = await pageOnQuietServer(t, { maxPayload: 1024 }, 'small-frames', `#token=${TOKEN}`);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  // 2,400 bytes: under the page's 64 KiB, over this server's 1 KiB.
  const description = `Find ${'moons '.repeat(400)}`;
  await page.fill('#goal-description', description);
  await page.click('#goal-form button[type=submit]');
  t.is(await toastText(page, '1009', '.toast.error'), `goal "${description.slice(0, 60)}…": refused by the server as too big (closed with 1009, over its frame limit)`, 'named, and cut to 60 characters');
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
});

test('in Chromium: a request the connection closes on before its answer is named in a toast as unanswered', async (t) => {
  const { server, page } = await pageOnQuietServer(t, {}, 'cut-off', `#token=${TOKEN}`);
  const clients = new Map<string, WsClient>();
  server.onConnection((client) => void clients.set(client.id, client));
  // The agent goes away between taking the signal and answering it.
  server.onSignal((request) => {
    server.drop(clients.get(request.client)!, 1001, 'agent stopped');
    return { ok: true, signal: 'goal' };
  });
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  await page.fill('#goal-description', 'Find moons of Mars');
  await page.click('#goal-form button[type=submit]');
  t.is(await toastText(page, 'no answer', '.toast.error'), 'goal "Find moons of Mars": no answer before the connection closed (agent stopped); it may not have been taken');
  t.is(await page.locator('#goal-description').inputValue(), 'Find moons of Mars', 'kept for sending again');
});

test('in Chromium: thousands of goals: the tree shows the 200 most important and counts the rest, and is redrawn only when goals change', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const goals: Snapshot['goals'] = Array.from({ length: 3000 }, (_, i) => ({ goalId: `goal-${i + 1}`, description: `Find qzx ${i + 1}`, criteria: '', status: 'Active', priority: i % 256, childIds: [] }));
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server, { snapshot: () => ({ ...emptySnapshot('many-goals'), goals }) }));
  const browser = await launch(t);
  const page = await browser.newPage();
  await page.goto(server.url);
  const more = page.locator('[data-testid=more-goals]');
  await more.waitFor({ timeout: 10_000 });
  t.is(await more.textContent(), '… and 2800 more, lower in status or priority');
  t.is(await page.locator('[data-testid=goal-tree] .goal').count(), 200);
  t.is(await page.locator('[data-testid=goal-tree] .goal').first().getAttribute('data-goal-id'), 'goal-256', 'the highest priority first');
  t.is(await page.locator('#goal-count').textContent(), '3000 active / 3000');

  const firstRow = async () => page.evaluate(() => (document.querySelector('[data-testid=goal-tree] .goal') as HTMLElement).dataset.drawn);
  await page.evaluate(() => ((document.querySelector('[data-testid=goal-tree] .goal') as HTMLElement).dataset.drawn = 'before'));
  const header = { session: 'many-goals', cycle: 1, at: Date.now() };
  events$.next({ kind: 'fact', seq: 1, ...header, subject: 'Mars', predicate: 'has moon', object: 'Phobos', added: true } as AgentEvent);
  await page.locator('#facts', { hasText: '1' }).waitFor({ timeout: 10_000 });
  t.is(await firstRow(), 'before', 'a fact leaves the goal tree as drawn');
  events$.next({ kind: 'goal', seq: 2, ...header, goalId: 'goal-256', description: 'Find qzx 256', status: 'Completed', priority: 255, change: 'completed' } as AgentEvent);
  await page.locator('#goal-count', { hasText: '2999 active / 3000' }).waitFor({ timeout: 10_000 });
  t.is(await firstRow(), undefined, 'a goal event redraws it');
  t.is(await page.locator('[data-testid=goal-tree] .goal').first().getAttribute('data-goal-id'), 'goal-512');
});

test('in Chromium: where the browser refuses local storage (cookies blocked), the page still connects and takes the #token= link', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  new Subject<AgentEvent>().subscribe(toWebSocket(server, { snapshot: () => emptySnapshot('no-storage') }));
  server.onSignal(() => ({ ok: true, signal: 'command' }));
  const browser = await launch(t);
  // What Chromium throws on every use of localStorage when the site may not keep data.
  await browser.addInitScript(() =>
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
      },
    }),
  );
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}#token=${TOKEN}`);
  await page.locator('#conn[data-state="live"]').waitFor({ timeout: 10_000 });
  await page.locator('#session', { hasText: 'no-storage' }).waitFor({ timeout: 10_000 });
  await page.click('[data-command=pause]');
  await page.locator('.toast', { hasText: 'pause: accepted' }).waitFor({ timeout: 10_000 });
  t.deepEqual(errors, []);
});

/** Whether the first two characters of `text`, in the first element matching `selector`, are drawn left to right. */
async function drawnLeftToRight(page: Page, selector: string, text: string): Promise<boolean> {
  return page.evaluate(([selector, text]) => {
    const walker = document.createTreeWalker(document.querySelector(selector)!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(text);
      if (at < 0) continue;
      const [first, second] = [at, at + 1].map((offset) => {
        const range = document.createRange();
        range.setStart(node!, offset);
        range.setEnd(node!, offset + 1);
        return range.getBoundingClientRect().left;
      });
      return first! < second!;
    }
    throw new Error(`no text ${JSON.stringify(text)} in ${selector}`);
  }, [selector, text] as const);
}

test('in Chromium: a right-to-left override in a goal description does not reverse the page\'s own text after it', async (t) => {
  const description = 'Find moons \u202Eof Mars';
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const snapshot = (): Snapshot => ({
    ...emptySnapshot('bidi'),
    cycle: 34,
    goals: [{ goalId: 'goal-1', description, criteria: '', status: 'Active', priority: 128, childIds: [] }],
    decisions: [{ cycle: 34, goalId: 'goal-1', tool: 'kg_query', score: 0.5, breakdown: 'none', status: 'ok', progress: 'some' }],
  });
  new Subject<AgentEvent>().subscribe(toWebSocket(server, { snapshot }));
  server.onSignal(() => ({ ok: true, signal: 'goal' }));
  const browser = await launch(t);
  const page = await browser.newPage();
  await page.goto(`${server.url}#token=${TOKEN}`);
  await page.locator('.decision .goal-ref').waitFor({ timeout: 10_000 });
  t.true(await drawnLeftToRight(page, '.decision .goal-ref', '34'), '"· cycle 34" after the description');
  await page.fill('#goal-description', description);
  await page.click('#goal-form button[type=submit]');
  // Pinned as it appears: a toast leaves after 6 s, which a loaded machine can take to get to the checks.
  await page.waitForFunction(() => {
    const toast = [...document.querySelectorAll('.toast')].find((item) => item.textContent!.includes('accepted'));
    if (toast) toast.remove = () => undefined;
    return toast !== undefined;
  }, undefined, { timeout: 10_000 });
  t.is(await page.locator('.toast').textContent(), `goal "${description}": accepted`);
  t.true(await drawnLeftToRight(page, '.toast', 'accepted'), '": accepted" after the label');
});

/** Plants one flower per run straight into the graph (two knowledge triples, no `fact` event), the rose last. */
function planter(): Tool<{ flower: string }> {
  const flowers = ['tulip', 'daisy', 'rose'];
  let runs = 0;
  return {
    name: 'plant_flower',
    description: 'Plant a flower in the garden',
    keywords: ['plant', 'garden', 'flower', 'grow', 'seed', 'bloom'],
    danger: 'safe',
    capabilities: ['kg.write'],
    input: z.object({ flower: z.string() }),
    scoring: { kind: 'semantic', threshold: 0.3, multiplier: 2 },
    propose: () => ({ flower: flowers[Math.min(runs, flowers.length - 1)]! }),
    execute({ flower }, { mind }) {
      runs++;
      mind.graph.add('garden', 'grows', flower);
      mind.graph.add(flower, 'is a', 'flower');
      return { ok: true, summary: `planted ${flower}`, added: 2, facts: [{ subject: 'garden', predicate: 'grows', object: flower }] };
    },
  };
}

/**
 * A keep-alive agent with the planter tool (and `mindConfig`), served on a
 * fresh server; `watch` sees each event first. `open` opens a page on it and
 * waits for the session to show.
 */
async function plantingAgent(t: ExecutionContext, session: string, options: { mindConfig?: MindConfig; watch?: (event: AgentEvent) => void } = {}) {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  const mind = new Mind({ ...(options.mindConfig ? { config: options.mindConfig } : {}), tools: [planter()] });
  const agent = createAgent({ session, mind, config: { heartbeatMs: 0 } });
  t.teardown(() => void agent.stop());
  const input$ = new Subject<Stimulus>();
  const events$ = agent.run({ inputs: [input$], keepAlive: true });
  if (options.watch) events$.subscribe(options.watch);
  events$.subscribe(toWebSocket(server, { snapshot: () => agentSnapshot(agent.mind, agent.session) }));
  const browser = await launch(t);
  events$.connect();
  const open = async (): Promise<Page> => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.locator('#session', { hasText: session }).waitFor({ timeout: 10_000 });
    return page;
  };
  return { agent, input$, open };
}

test('in Chromium: the fact count and the memory gauge follow the agent, counting facts tools add without fact events and memory consolidation frees', async (t) => {
  const kinds: string[] = [];
  const { agent, input$, open } = await plantingAgent(t, 'dash-live-counts', { watch: (event) => kinds.push(event.kind) });
  const page = await open();
  /** Waits (up to 5 s) for the header and gauge to show the agent's counts, then compares them. */
  const matchesAgent = async (message: string) => {
    const expected = { facts: String(agent.mind.graph.knowledgeSize), memory: `${agent.mind.memory.size} / ${agent.mind.memory.capacity} entries` };
    const read = () => page.evaluate(() => ({ facts: document.getElementById('facts')!.textContent, memory: document.getElementById('memory-text')!.textContent }));
    for (let tries = 0; tries < 50 && JSON.stringify(await read()) !== JSON.stringify(expected); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    t.deepEqual(await read(), expected, message);
  };

  // The planter's last run completes the goal and the agent goes idle: no observation follows that run.
  input$.next(goalStimulus('Plant flowers in the garden', { criteria: 'garden grows rose', priority: 200 }));
  await page.locator('[data-testid=goal-tree] .goal[data-status=Completed]', { hasText: 'Plant flowers in the garden' }).waitFor({ timeout: 10_000 });
  t.is(agent.mind.graph.knowledgeSize, 6, 'three runs of the planter');
  t.false(kinds.includes('fact'), 'no fact event told the page');
  t.true(kinds.lastIndexOf('action') > kinds.lastIndexOf('observation'), 'no observation came after the last action');
  await matchesAgent('after the goal, with the agent idle');

  input$.next(stimulus({ type: 'command', command: 'consolidate' }));
  await page.locator('#episodes', { hasText: '1' }).waitFor({ timeout: 10_000 });
  t.true(agent.mind.memory.size < 10, `consolidation freed memory (${agent.mind.memory.size} left)`);
  await matchesAgent('after consolidation');
});

test('in Chromium: a page left open drops the goals and episodes the mind retires past its bounds, showing what a reload shows', async (t) => {
  const mindConfig = { ...defaultMindConfig(), finishedGoalsKept: 1, episodesKept: 1 };
  const { agent, input$, open } = await plantingAgent(t, 'dash-retired', { mindConfig });
  const page = await open();
  const read = () => page.evaluate(() => ({
    goals: [...document.querySelectorAll<HTMLElement>('[data-testid=goal-tree] .goal')].map((goal) => goal.dataset.goalId).sort(),
    episodes: document.getElementById('episodes')!.textContent,
  }));

  for (const description of ['Plant flowers in the garden', 'Grow flowers in the garden', 'Plant seeds in the garden']) {
    input$.next(goalStimulus(description, { criteria: 'garden grows rose', priority: 200 }));
    await page.locator('[data-testid=goal-tree] .goal[data-status=Completed]', { hasText: description }).waitFor({ timeout: 10_000 });
    input$.next(stimulus({ type: 'command', command: 'consolidate' }));
    await page.locator('.toast', { hasText: 'consolidate: consolidated' }).first().waitFor({ timeout: 10_000 });
    await page.evaluate(() => document.getElementById('toasts')!.replaceChildren());
  }
  // The mind retires at the checkpoint of the next signal.
  input$.next(stimulus({ type: 'command', command: 'status' }));
  await page.locator('.toast', { hasText: 'status: ' }).first().waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
  const live = await read();
  const expected = { goals: agent.mind.goals.all().map((goal) => goal.id).sort(), episodes: String(agent.mind.episodes.size) };
  t.is(expected.goals.length, 1, 'the mind kept one finished goal');
  t.is(expected.episodes, '1', 'and one episode');
  t.deepEqual(live, expected, 'the open page');
  await page.reload();
  await page.locator('#session', { hasText: 'dash-retired' }).waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
  t.deepEqual(await read(), live, 'the page after a reload');
});

test('in Chromium: after a reload, the page retires the goal that finished longest ago, as the mind does, not the oldest created', async (t) => {
  const finished: string[] = [];
  const mindConfig = { ...defaultMindConfig(), finishedGoalsKept: 2 };
  const watch = (event: AgentEvent) => event.kind === 'goal' && (event.status === 'Completed' || event.status === 'Failed') && finished.push(event.description);
  const { agent, input$, open } = await plantingAgent(t, 'dash-finish-order', { mindConfig, watch });
  const waitFinished = async (description: string) => {
    for (let i = 0; i < 200 && !finished.includes(description); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  // Created first, finished last: the lower priority waits.
  input$.next(goalStimulus('Plant seeds in the garden', { criteria: 'garden grows rose', priority: 10 }));
  input$.next(goalStimulus('Grow flowers in the garden', { criteria: 'garden grows rose', priority: 200 }));
  await waitFinished('Plant seeds in the garden');
  t.true(finished.indexOf('Grow flowers in the garden') < finished.indexOf('Plant seeds in the garden'), finished.join(', '));

  const page = await open();
  input$.next(goalStimulus('Plant flowers in the garden', { criteria: 'garden grows rose', priority: 200 }));
  await waitFinished('Plant flowers in the garden');
  // The mind retires at the checkpoint of the next signal.
  input$.next(stimulus({ type: 'command', command: 'status' }));
  await page.locator('.toast', { hasText: 'status: ' }).first().waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
  const shown = await page.evaluate(() => [...document.querySelectorAll('[data-testid=goal-tree] .goal .desc')].map((goal) => goal.textContent).sort());
  t.deepEqual(shown, agent.mind.goals.all().map((goal) => goal.description).sort());
  t.true(shown.includes('Plant seeds in the garden'), 'the goal created first but finished last is kept');
});

test('in Chromium: a goal added while the page is open shows its criteria in its tooltip, as it does after a reload', async (t) => {
  const { input$, open } = await plantingAgent(t, 'dash-criteria');
  const page = await open();
  input$.next(goalStimulus('Plant flowers in the garden', { criteria: 'garden grows rose', priority: 200 }));
  const goal = page.locator('[data-testid=goal-tree] .goal[data-goal-id=goal-1]');
  await goal.locator('xpath=self::*[@data-status="Completed"]').waitFor({ timeout: 10_000 });
  const live = await goal.getAttribute('title');
  t.is(live, 'goal-1: Plant flowers in the garden\ncriteria: garden grows rose', 'the open page');
  await page.reload();
  await page.locator('#session', { hasText: 'dash-criteria' }).waitFor({ timeout: 10_000 });
  await goal.waitFor({ timeout: 10_000 });
  t.is(await goal.getAttribute('title'), live, 'the page after a reload');
});
