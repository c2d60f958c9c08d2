import test from 'ava';
import { mkdtemp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { ToolFailure, type Tool, type ToolOutput } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import type { Decision } from '../mind/toolSelection.js';
import { demoFactSignals, demoMind, goalSignal, runDecision, runOnVirtualTime } from './mindFixtures.js';

function run(mind: Mind, tool: string, input: unknown, description = 'test goal'): Promise<ToolOutput> {
  const goal = mind.goals.active().find((g) => g.description === description) ?? mind.addGoal({ description });
  const decision = { goalId: goal.id, tool, input } as Decision;
  return runDecision(mind, goal, decision);
}

function mindWith(tools: Partial<MindConfig['tools']>): Mind {
  const config = MindConfig.parse({ tools });
  return new Mind({ config, tools: builtinTools() });
}

test('the 13 built-in tools each have 17–25 keywords, a danger level, capabilities and a zod input', (t) => {
  const tools = builtinTools();
  t.deepEqual(tools.map((tool) => tool.name).sort(), [
    'content_ingest', 'file_io', 'gap_analysis', 'http_fetch', 'infer_rules', 'kg_mutate', 'kg_query', 'library_search', 'memory_recall',
    'reason', 'shell_exec', 'similarity_search', 'user_interact',
  ]);
  for (const tool of tools) {
    t.true(tool.keywords.length >= 17 && tool.keywords.length <= 25, `${tool.name} has ${tool.keywords.length} keywords`);
    t.true(['safe', 'cautious', 'dangerous', 'critical'].includes(tool.danger));
    t.true(tool.capabilities.length > 0);
    t.false(tool.input.safeParse({}).success && tool.name !== 'infer_rules', `${tool.name} accepts an empty input`);
  }
});

test('a missing parameter is a clear tool error, never a crash', async (t) => {
  const mind = demoMind();
  const error = await t.throwsAsync(run(mind, 'kg_query', {}), { instanceOf: ToolFailure });
  t.is(error!.message, 'kg_query: invalid input: symbol: Invalid input: expected string, received undefined');
  const mutate = await t.throwsAsync(run(mind, 'kg_mutate', { subject: 'a', predicate: 'b' }), { instanceOf: ToolFailure });
  t.regex(mutate!.message, /kg_mutate: invalid input: object/);
});

test('kg_query returns the triples around a symbol, or those using it as a predicate', async (t) => {
  const mind = demoMind();
  const mars = await run(mind, 'kg_query', { symbol: 'Mars' });
  t.true(mars.facts!.some((f) => f.subject === 'mars' && f.predicate === 'has_moon' && f.object === 'phobos'));
  const orbits = await run(mind, 'kg_query', { symbol: 'orbits' });
  t.true(orbits.facts!.length > 0 && orbits.facts!.every((f) => f.predicate === 'orbits'));
  t.is((await run(mind, 'kg_query', { symbol: 'comet' })).summary, 'nothing known about comet');
});

test('kg_mutate adds and removes triples; metadata is not counted as knowledge', async (t) => {
  const mind = demoMind();
  const added = await run(mind, 'kg_mutate', { op: 'add', subject: 'Pluto', predicate: 'has', object: 'heart shaped glacier' });
  t.is(added.added, 1);
  t.is(mind.graph.query({ subject: 'pluto', predicate: 'has', object: 'heart_shaped_glacier' }).length, 1);
  const meta = await run(mind, 'kg_mutate', { op: 'add', subject: 'goal-1', predicate: 'agent:explored', object: 'pluto' });
  t.is(meta.added, 0);
  t.deepEqual(meta.facts, []);
  await run(mind, 'kg_mutate', { op: 'remove', subject: 'Pluto', predicate: 'has', object: 'heart shaped glacier' });
  t.is(mind.graph.query({ subject: 'pluto', predicate: 'has', object: 'heart_shaped_glacier' }).length, 0);
});

test('reason chains is-a transitively, inherits properties and applies user rules', async (t) => {
  const mind = new Mind({ tools: builtinTools() });
  for (const [s, p, o] of [
    ['rex', 'is a', 'dog'], ['dog', 'is a', 'mammal'], ['mammal', 'is a', 'animal'], ['mammal', 'has', 'fur'],
    ['rex', 'owned by', 'alice'], ['owned by', 'implies', 'cared for by'], ['has moon', 'inverse of', 'orbits'], ['mars', 'has moon', 'phobos'],
  ] as const) mind.graph.add(s, p, o);
  const out = await run(mind, 'reason', { about: ['dog', 'mars'] });
  const has = (s: string, p: string, o: string) => mind.graph.query({ subject: s, predicate: p, object: o }).length === 1;
  t.true(has('rex', 'is_a', 'animal'), 'transitivity');
  t.true(has('dog', 'is_a', 'animal'), 'transitivity for the class itself');
  t.true(has('rex', 'has', 'fur'), 'inheritance');
  t.true(has('rex', 'cared_for_by', 'alice'), 'user rule: implies');
  t.true(has('phobos', 'orbits', 'mars'), 'user rule: inverse_of');
  t.is(out.added, out.facts!.length);
  t.is((await run(mind, 'reason', { about: ['dog', 'mars'] })).added, 0, 'saturated: nothing new the second time');
});

test('similarity_search finds the symbols with the most similar relations', async (t) => {
  const mind = demoMind();
  const out = await run(mind, 'similarity_search', { symbol: 'Mars', topK: 3 });
  const near = (out.data as { symbol: string }[]).map((n) => n.symbol);
  t.true(near.every((s) => ['mercury', 'venus', 'earth'].includes(s)), `nearest to mars: ${near.join(', ')}`);
});

test('similarity_search sees a symbol\'s relations as they now stand when one is replaced by another (same count), as a restored mind does', async (t) => {
  const mind = new Mind({ tools: builtinTools() });
  for (const planet of ['mars', 'venus', 'earth']) mind.graph.add(planet, 'orbits', 'sun');
  for (const planet of ['mars', 'earth']) mind.graph.add(planet, 'has', 'moon');
  const nearEarth = async (m: Mind) => ((await run(m, 'similarity_search', { symbol: 'earth' })).data as { symbol: string; similarity: number }[]).find((n) => n.symbol === 'mars')?.similarity;
  t.is(await nearEarth(mind), 1, 'mars and earth share every relation');
  mind.graph.remove({ subject: 'mars', predicate: 'has', object: 'moon' });
  mind.graph.add('mars', 'has', 'dust');
  const live = await nearEarth(mind);
  t.true(live !== undefined && live < 1, `mars no longer has a moon: similarity ${live}`);
  t.is(live, await nearEarth(Mind.fromJSON(mind.toJSON(), { tools: builtinTools() })));
});

test('infer_rules mines the inverse of has_moon from the demo data and reason applies it', async (t) => {
  const mind = demoMind();
  const out = await run(mind, 'infer_rules', {});
  t.true(mind.graph.query({ subject: 'has_moon', predicate: 'inverse_of', object: 'orbits' }).length === 1, out.summary);
  t.is(mind.graph.query({ subject: 'callisto', predicate: 'orbits', object: 'jupiter' }).length, 0);
  await run(mind, 'reason', { about: ['jupiter'] });
  t.is(mind.graph.query({ subject: 'callisto', predicate: 'orbits', object: 'jupiter' }).length, 1);
});

test('gap_analysis lists entities missing what their peers have', async (t) => {
  const mind = demoMind();
  const out = await run(mind, 'gap_analysis', { about: ['bird'], limit: 50 });
  const gaps = out.data as { entity: string; missing: string }[];
  t.true(gaps.some((g) => g.entity === 'penguin' && g.missing === 'can') === false, 'penguins can swim, so they have a `can` fact');
  t.true(gaps.some((g) => g.entity === 'penguin' && g.missing === 'diet'), 'penguin lacks a diet that most birds have');
});

test('content_ingest turns "X is a Y" and "X has Y" into facts; library_search finds the passage', async (t) => {
  const mind = new Mind({ tools: builtinTools() });
  const out = await run(mind, 'content_ingest', { text: 'Halley is a comet. Halley has a tail. Comets orbit the Sun on long ellipses.', source: 'notes' });
  t.is(out.added, 2);
  t.is(mind.graph.query({ subject: 'halley', predicate: 'is_a', object: 'comet' }).length, 1);
  t.is(mind.graph.query({ subject: 'halley', predicate: 'has', object: 'tail' }).length, 1);
  await run(mind, 'content_ingest', { text: 'Gravity bends light. The paper on gravity says mass curves spacetime.', source: 'paper' });
  const found = await run(mind, 'library_search', { query: 'What did that paper say about gravity?' });
  t.regex(found.content!, /mass curves spacetime/);
  t.is((found.data as { source: string }[])[0]!.source, 'paper');
  t.is((await run(mind, 'library_search', { query: 'volcanoes on Io' })).content, undefined);
});

test('library_search finds a word at the end of a sentence longer than a passage (a line without stops), in a passage of at most 400 characters', async (t) => {
  const mind = new Mind({ tools: builtinTools() });
  const filler = Array.from({ length: 150 }, (_, i) => `filler${i}`).join(' ');
  await run(mind, 'content_ingest', { text: `Observation log ${filler} and at last a comet crossed the sky`, source: 'log' });
  const found = await run(mind, 'library_search', { query: 'comet sky' });
  t.regex(found.content ?? '', /a comet crossed the sky/);
  const passages = found.data as { text: string }[];
  t.true(passages.every((p) => p.text.length <= 400), `passage lengths: ${passages.map((p) => p.text.length).join(', ')}`);
  t.regex((await run(mind, 'library_search', { query: 'observation log' })).content ?? '', /^.*Observation log filler0/, 'the start of the sentence is still found');
});

test('file_io reads, writes and lists inside the workspace and refuses ../, absolute paths and symbolic links', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'ooda-files-'));
  const workspace = join(root, 'ws');
  await mkdir(workspace);
  await writeFile(join(root, 'secret.txt'), 'outside');
  await writeFile(join(workspace, 'notes.txt'), 'Pluto is a dwarf planet.');
  await symlink(join(root, 'secret.txt'), join(workspace, 'link.txt'));
  await symlink(root, join(workspace, 'up'));
  const mind = mindWith({ workspace });
  const read = await run(mind, 'file_io', { op: 'read', path: 'notes.txt' });
  t.is(read.content, 'Pluto is a dwarf planet.');
  t.is(mind.library.size, 1, 'the file joined the library');
  await run(mind, 'file_io', { op: 'write', path: 'out/result.txt', content: 'done' });
  t.is(await readFile(join(workspace, 'out', 'result.txt'), 'utf8'), 'done');
  t.deepEqual((await run(mind, 'file_io', { op: 'list', path: '.' })).data, ['link.txt', 'notes.txt', 'out/', 'up']);
  for (const [path, why] of [
    ['../secret.txt', /"\.\." would leave the workspace/],
    ['out/../../secret.txt', /"\.\." would leave the workspace/],
    [join(root, 'secret.txt'), /absolute paths are not allowed/],
    ['link.txt', /link\.txt is a symbolic link/],
    ['up/secret.txt', /up is a symbolic link/],
  ] as const) {
    const error = await t.throwsAsync(run(mind, 'file_io', { op: 'read', path }), { instanceOf: ToolFailure });
    t.regex(error!.message, why, path);
  }
  await t.throwsAsync(run(mind, 'file_io', { op: 'write', path: '../escape.txt', content: 'x' }), { instanceOf: ToolFailure });
  const missing = await t.throwsAsync(run(mind, 'file_io', { op: 'read', path: 'missing.txt' }), { instanceOf: ToolFailure });
  t.is(missing!.message, 'file_io: read missing.txt failed: ENOENT');
  await t.throwsAsync(readFile(join(root, 'escape.txt')));
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; host: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

test('http_fetch GETs allowed hosts only, caps the size and times out', async (t) => {
  const { server, host, hits } = await listen((req, res) => {
    if (req.url === '/big') res.end('x'.repeat(5000));
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 20_000).unref();
    else res.setHeader('content-type', 'text/plain').end('Saturn has rings.');
  });
  t.teardown(() => server.closeAllConnections());
  t.teardown(() => server.close());
  const mind = mindWith({ httpAllowHosts: [host], httpMaxBytes: 1000, httpTimeoutMs: 1500 });
  const ok = await run(mind, 'http_fetch', { url: `http://${host}/page` });
  t.true(ok.ok);
  t.is(ok.content, 'Saturn has rings.');
  t.is(mind.library.size, 1);
  const big = await run(mind, 'http_fetch', { url: `http://${host}/big` });
  t.is(big.content!.length, 1000);
  t.true((big.data as { truncated: boolean }).truncated);
  const slow = await t.throwsAsync(run(mind, 'http_fetch', { url: `http://${host}/slow` }), { instanceOf: ToolFailure });
  t.regex(slow!.message, /timed out after 1500 ms/);
  const before = hits();
  const port = host.split(':')[1];
  const refused = await t.throwsAsync(run(mind, 'http_fetch', { url: `http://localhost:${port}/page` }), { instanceOf: ToolFailure });
  t.regex(refused!.message, /not in tools\.httpAllowHosts/);
  t.is(hits(), before, 'a refused host is never contacted');
});

test('shell_exec is refused when disabled; enabled, it runs an argument array without a shell and reports the exit code', async (t) => {
  const off = await t.throwsAsync(run(new Mind({ tools: builtinTools() }), 'shell_exec', { command: process.execPath, args: ['-e', ''] }), { instanceOf: ToolFailure });
  t.regex(off!.message, /refused: running commands is disabled/);
  const mind = mindWith({ shellExec: true, shellTimeoutMs: 5000 });
  const literal = await run(mind, 'shell_exec', { command: process.execPath, args: ['-e', 'console.log(process.argv[1])', '$HOME; rm -rf /'] });
  t.is(literal.content, '$HOME; rm -rf /\n', 'arguments reach the program untouched');
  t.is((literal.data as { exitCode: number }).exitCode, 0);
  const failing = await run(mind, 'shell_exec', { command: process.execPath, args: ['-e', 'process.exit(3)'] });
  t.false(failing.ok);
  t.is((failing.data as { exitCode: number }).exitCode, 3);
  t.regex(failing.summary, /exited with code 3/);
});

test('users register their own tools through AgentOptions.tools and mind.tools.register', (t) => {
  const calls: string[] = [];
  const telescope: Tool<{ target: string }> = {
    name: 'telescope',
    description: 'Point the telescope at a target and observe it.',
    keywords: ['telescope', 'observe', 'sky', 'night', 'point', 'aim', 'target', 'lens', 'zoom', 'image', 'photograph', 'astronomy', 'star', 'watch', 'look', 'view', 'see'],
    danger: 'safe',
    capabilities: ['optics'],
    input: z.object({ target: z.string().min(1) }),
    scoring: { kind: 'semantic', threshold: 0.55, multiplier: 0.9 },
    propose: () => ({ target: 'vega' }),
    execute({ target }) {
      calls.push(target);
      return { ok: true, summary: `observed ${target}`, content: 'Vega is a bright star seen through the telescope' };
    },
  };
  const { events, mind } = runOnVirtualTime([goalSignal('Point the telescope at the night sky and observe it')], { tools: [telescope], config: { maxCycles: 3 } });
  t.true(mind.tools.has('telescope'));
  t.is(events.find((e) => e.kind === 'decision')!.tool, 'telescope');
  t.true(calls.length >= 1 && calls.every((c) => c === 'vega'));
  const other = new Mind({ tools: builtinTools() });
  other.tools.register({ ...telescope, name: 'spyglass' });
  t.true(other.tools.has('spyglass'));
  t.throws(() => other.tools.register({ ...telescope, name: 'spyglass' }), { message: 'tool "spyglass" is already registered' });
});

test('in a run on the demo knowledge base no tool fails on the input it proposed', (t) => {
  const { events } = runOnVirtualTime([...demoFactSignals(), goalSignal('Find moons of Mars'), goalSignal('Learn what whales have')], { config: { maxCycles: 20 } });
  t.false(events.some((e) => e.kind === 'error'), JSON.stringify(events.filter((e) => e.kind === 'error')));
});
