import test from 'ava';
import { of, VirtualTimeScheduler } from 'rxjs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mind } from '../mind/mind.js';
import type { Tool } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import type { EffectRow, SignalRow } from '../sinks/storeSchema.js';
import { MindConfig } from '../mind/config.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { replayOn, replaySession, type Recording } from '../streams/replay.js';
import type { Signal } from '../streams/signals.js';
import { flushSettled, goalStimulus } from '../streams/testing.js';
import { withStore } from './helpers/withStore.js';
import { recordSession, resumeCrashed } from './helpers/recordSession.js';
import { scriptedTool } from './helpers/runtime.js';

const tempDir = (t: { teardown(fn: () => void): void }): string => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-effects-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

const configFor = (workspace: string, tools: Record<string, unknown> = {}) =>
  AgentConfig.parse({ seed: 3, heartbeatMs: 0, maxCycles: 6, stallThreshold: 1_000_000, tools: { workspace, ...tools } });


const WRITE_GOAL = "Write the notes 'Phobos and Deimos' to the text file moons.txt in the workspace folder";

const effectsOf = (db: string) => withStore(db, (store) => store.all<EffectRow>('SELECT * FROM effects ORDER BY id'));

test('a session whose tool read a file replays identically after the file changed and after it was deleted: the replay gets what the run read', async (t) => {
  const dir = tempDir(t);
  const workspace = join(dir, 'ws');
  const db = join(dir, 'a.db');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.txt'), 'Mars has two moons, Phobos and Deimos.\n');
  await recordSession(db, 'rec', configFor(workspace), [goalStimulus('Read the file notes.txt', { criteria: 'zzqx' })]);
  const effects = await effectsOf(db);
  t.true(effects.length > 0, 'the run recorded its reads');
  t.like(effects[0], { session: 'rec', tool: 'file_io', name: 'read notes.txt', outcome: 'ok', n: 0 });
  t.deepEqual(JSON.parse(effects[0]!.value!), { text: 'Mars has two moons, Phobos and Deimos.\n', bytes: 39 });

  writeFileSync(join(workspace, 'notes.txt'), 'Jupiter has 95 moons.\n');
  t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true });
  rmSync(join(workspace, 'notes.txt'));
  t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true });
});

test('a replay takes the recorded effect, not the world: an effect edited in the store makes the replay diverge at the action that read it', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'a.db');
  writeFileSync(join(dir, 'notes.txt'), 'Mars has two moons.\n');
  await recordSession(db, 'rec', configFor(dir), [goalStimulus('Read the file notes.txt', { criteria: 'zzqx' })]);
  await withStore(db, (store) => store.run(`UPDATE effects SET value = json_set(value, '$.bytes', 7) WHERE id = (SELECT min(id) FROM effects)`));
  const result = await withStore(db, (store) => replaySession(store, 'rec'));
  t.false(result.identical);
  if ('divergence' in result) {
    t.regex(result.divergence.expected, /"summary":"read 20 byte\(s\) from notes.txt"/);
    t.regex(result.divergence.got, /"summary":"read 7 byte\(s\) from notes.txt"/);
  }
});

test('an effect edited where no event shows it (the text read, which only the mind keeps) makes the replay diverge at the exit snapshot, naming the field', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'a.db');
  writeFileSync(join(dir, 'notes.txt'), 'Pluto is a dwarf planet.\n');
  await recordSession(db, 'rec', configFor(dir), [goalStimulus('Read the file notes.txt', { criteria: 'zzqx' })]);
  // The same length, so the event of the read (its byte count) stays as it was.
  await withStore(db, (store) => store.run(`UPDATE effects SET value = replace(value, 'dwarf', 'gassy')`));
  const result = await withStore(db, (store) => replaySession(store, 'rec'));
  t.like(result, { identical: false, stateDivergence: { snapshot: { reason: 'exit' }, path: '.extensions.library.0.text', expected: '"Pluto is a dwarf planet.\\n"', got: '"Pluto is a gassy planet.\\n"' } });
});

test('http_fetch: a replay gets the response the run got and sends no request, with the server gone', async (t) => {
  const dir = tempDir(t);
  let requests = 0;
  const server = createServer((_request, response) => {
    requests++;
    response.setHeader('content-type', 'text/plain');
    response.end(`Jupiter has 95 moons (request ${requests}).`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const db = join(dir, 'a.db');
  const config = configFor(dir, { httpAllowHosts: [`127.0.0.1:${port}`] });
  try {
    await recordSession(db, 'rec', config, [goalStimulus(`Fetch the page http://127.0.0.1:${port}/moons`, { criteria: 'zzqx' })]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  const fetched = requests;
  t.true(fetched > 0, 'the run fetched the page');
  const effects = await effectsOf(db);
  t.is(effects.length, fetched);
  t.like(JSON.parse(effects.at(-1)!.value!), { status: 200, text: `Jupiter has 95 moons (request ${fetched}).` });
  t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true });
  t.is(requests, fetched, 'the replay sent nothing');
});

test('shell_exec: a replay gets how the recorded program ended and runs nothing', async (t) => {
  const dir = tempDir(t);
  const runs = join(dir, 'runs');
  const db = join(dir, 'a.db');
  const program = `${process.execPath} -e require("fs").appendFileSync(${JSON.stringify(runs)},"r");console.log(7)`;
  const config = configFor(dir, { shellExec: true });
  await recordSession(db, 'rec', config, [goalStimulus(`Execute the shell program \`${program}\` in a terminal and run the script`, { criteria: 'zzqx' })]);
  const ran = readFileSync(runs, 'utf8');
  t.true(ran.length > 0, 'the run ran the program');
  const effects = await effectsOf(db);
  t.like(JSON.parse(effects[0]!.value!), { exitCode: 0, stdout: '7\n' });
  t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true });
  t.is(readFileSync(runs, 'utf8'), ran, 'the replay ran nothing');
});

test('a crashed session whose tool wrote a file resumes to the state the run reached, without writing it again', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'a.db');
  const config = configFor(dir);
  const agent = await recordSession(db, 'rec', config, [goalStimulus(WRITE_GOAL, { criteria: 'zzqx' })], { crash: true });
  const effects = await effectsOf(db);
  t.true(effects.some((e) => e.name === 'write moons.txt' && e.outcome === 'ok'), 'the run wrote the file');
  rmSync(join(dir, 'moons.txt'));
  const { state, reapplied } = await resumeCrashed(db, config);
  t.true(reapplied > 0);
  t.false(existsSync(join(dir, 'moons.txt')), 'the resume wrote nothing');
  t.deepEqual(state, JSON.parse(JSON.stringify(agent.mind.toJSON())), 'the resumed mind is the one the run reached');
});

test('a recording with no effect stored for a write (older than effects, or cut by a crash) does not write again: the replay fails at that action saying so', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'a.db');
  await recordSession(db, 'rec', configFor(dir), [goalStimulus(WRITE_GOAL, { criteria: 'zzqx' })]);
  await withStore(db, (store) => store.run('DELETE FROM effects'));
  rmSync(join(dir, 'moons.txt'));
  const result = await withStore(db, (store) => replaySession(store, 'rec'));
  t.false(result.identical);
  t.regex(JSON.stringify(result), /file_io: not done again while a recording is re-run \(replay or crash recovery\): it would write moons.txt/);
  t.false(existsSync(join(dir, 'moons.txt')));
});

test('a recording with no effect stored for a read (older than effects, or cut by a crash) reads the file again, at the virtual time the run read it: it replays identically while the file reads the same', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'a.db');
  writeFileSync(join(dir, 'notes.txt'), 'Mars has two moons, Phobos and Deimos.\n');
  await recordSession(db, 'rec', configFor(dir), [goalStimulus('Read the file notes.txt', { criteria: 'zzqx' })]);
  await withStore(db, (store) => store.run('DELETE FROM effects'));
  for (let replay = 0; replay < 5; replay++) t.like(await withStore(db, (store) => replaySession(store, 'rec')), { identical: true }, `replay ${replay}`);
});

test('a pass begun behind another that completed at once keeps the time it began, also when its tool awaits an effect that settles later', async (t) => {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = 1000;
  let calls = 0;
  const reader = scriptedTool('slow_read', 0.99, () => ({ ok: true, summary: 'unused' }));
  // The first and third runs read for 3 ms of virtual time, the second does not.
  reader.execute = (_input, ctx) =>
    calls++ === 1 ? { ok: true, summary: 'at once' } : ctx.effect('read slowly', () => new Promise<string>((resolve) => scheduler.schedule(() => resolve(`page ${calls}`), 3))).then((text) => ({ ok: true, summary: `read ${text}` }));
  const mind = new Mind({ tools: builtinTools(), config: MindConfig.parse({ stallThreshold: 1_000_000 }) });
  mind.addGoal({ description: 'read slowly', criteria: 'zzqx', priority: 200 });
  const agent = createAgent({ mind, tools: [reader], scheduler, config: { seed: 1, heartbeatMs: 0 } });
  const tick: Signal = { type: 'tick', depth: 0, meta: { source: 'test' } };
  const events: AgentEvent[] = [];
  // Three ticks at once: the second and third wait for the first pass, whose read settles at 1003.
  const events$ = agent.run({ signals: [of(tick, tick, tick)], drive: false });
  events$.subscribe((event) => events.push(event));
  events$.connect();
  // The effects' "I/O" waits on the virtual clock itself: nothing real to wait for between steps.
  await flushSettled(scheduler, { realWorkMs: 0 });
  t.deepEqual(
    events.filter((event) => event.kind === 'action').map((action) => [action.summary, action.at]),
    [
      ['read page 1', 1000],
      ['at once', 1003],
      ['read page 3', 1003],
    ],
  );
});

test('a replayed stop recorded at the time a pass began comes after that pass\'s effects recorded as settled: the run was not given up on before they came', async (t) => {
  const reader = scriptedTool('slow_read', 0.99, () => ({ ok: true, summary: 'unused' }));
  // Three reads, one after the other: each is asked for only once the one before has settled.
  reader.execute = async (_input, ctx) => {
    const pages: string[] = [];
    for (const n of [1, 2, 3]) pages.push(await ctx.effect(`read ${n}`, () => 'not read on replay'));
    return { ok: true, summary: `read ${pages.join(', ')}` };
  };
  const mind = new Mind({ tools: builtinTools() });
  mind.addGoal({ description: 'read slowly', criteria: 'zzqx', priority: 200 });
  const tick: SignalRow = { id: 1, session: 's', at: 1000, type: 'tick', body: JSON.stringify({ type: 'tick', depth: 0, meta: { source: 'driver' }, at: 1000 }) };
  const recording: Recording = {
    session: 's',
    config: AgentConfig.parse({ seed: 1, heartbeatMs: 0, stallThreshold: 1_000_000 }),
    firstSeq: 1,
    base: mind.toJSON(),
    startAt: 1000,
    signals: (async function* () {
      yield [tick];
    })(),
    effects: async (key) => ({ ...key, id: key.n + 1, at: 1000, tool: 'slow_read', name: `read ${key.n + 1}`, outcome: 'ok', value: `page ${key.n + 1}` }),
    stop: { at: 1000, reason: 'SIGINT' },
  };
  const events: AgentEvent[] = [];
  await replayOn(recording, { tools: [reader] }, (event) => events.push(event));
  t.deepEqual(
    events.filter((event) => event.kind === 'action').map((action) => action.summary),
    ['read page 1, page 2, page 3'],
  );
  t.like(events.at(-1), { kind: 'session', state: 'stopped', at: 1000 });
});

/** A recorded session (no store left open) of `tool` worked on for `maxCycles` cycles, and its replay's result. */
async function recordAndReplay(t: { teardown(fn: () => void): void }, tool: Tool<{ n: number }>, config: Record<string, unknown>) {
  const dir = tempDir(t);
  const db = join(dir, 'a.db');
  const agentConfig = AgentConfig.parse({ seed: 1, heartbeatMs: 0, stallThreshold: 1_000_000, ...config });
  await recordSession(db, 'rec', agentConfig, [goalStimulus('Work on the task', { criteria: 'zzqx' })], { tools: [tool] });
  return { effects: await effectsOf(db), result: await withStore(db, (store) => replaySession(store, 'rec', { tools: [tool] })) };
}

test('an effect that came after the run\'s deadline, but before the timer for it ran (a busy event loop), replays as it ran: not timed out', async (t) => {
  const busy = scriptedTool('busy_work', 0.99, () => ({ ok: true, summary: 'unused' }));
  busy.execute = async (_input, ctx) => {
    const text = await ctx.effect('crunch', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      // Holds the event loop past toolTimeoutMs: the deadline's timer runs only after this settles.
      const until = Date.now() + 150;
      while (Date.now() < until);
      return 'crunched';
    });
    return { ok: true, summary: `got ${text}` };
  };
  const { effects, result } = await recordAndReplay(t, busy, { maxCycles: 1, toolTimeoutMs: 100 });
  t.like(effects[0], { name: 'crunch', outcome: 'ok' });
  t.like(result, { identical: true });
});

test('effects in flight together replay in the order they came, not the order they were asked for', async (t) => {
  const both = scriptedTool('read_both', 0.99, () => ({ ok: true, summary: 'unused' }));
  both.execute = async (_input, ctx) => {
    const arrived: string[] = [];
    const slow = ctx.effect('read a', () => new Promise<string>((resolve) => setImmediate(() => resolve('a')))).then((v) => arrived.push(v));
    const fast = ctx.effect('read b', () => 'b').then((v) => arrived.push(v));
    await Promise.all([slow, fast]);
    return { ok: true, summary: `arrived ${arrived.join(',')}` };
  };
  const { effects, result } = await recordAndReplay(t, both, { maxCycles: 1 });
  t.deepEqual(
    effects.map((e) => e.name),
    ['read b', 'read a'],
  );
  t.like(result, { identical: true });
});
