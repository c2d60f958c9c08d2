import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mind } from '../mind/mind.js';
import { builtinTools } from '../mind/tools/index.js';
import type { EffectRow, SignalRow } from '../sinks/storeSchema.js';
import { AgentConfig } from '../streams/config.js';
import type { AgentEvent } from '../streams/events.js';
import { replayOn, replaySession, type Recording } from '../streams/replay.js';
import { goalStimulus } from '../streams/testing.js';
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
  if (!result.identical) {
    t.regex(result.divergence.expected, /"summary":"read 20 byte\(s\) from notes.txt"/);
    t.regex(result.divergence.got, /"summary":"read 7 byte\(s\) from notes.txt"/);
  }
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

test('replayed passes keep the instant they began: a pass begun behind another (which completed at once) whose effect settles later; a recorded stop at the time an effect settled comes after it', async (t) => {
  let calls = 0;
  const reader = scriptedTool('slow_read', 0.99, () => ({ ok: true, summary: 'unused' }));
  // The first and third runs read (an effect), the second does not.
  reader.execute = (_input, ctx) =>
    calls++ === 1 ? { ok: true, summary: 'at once' } : ctx.effect('read slowly', () => 'not read on replay').then((text) => ({ ok: true, summary: `read ${text}` }));
  const mind = new Mind({ tools: builtinTools() });
  mind.addGoal({ description: 'read slowly', criteria: 'zzqx', priority: 200 });
  const tick = (id: number): SignalRow => ({ id, session: 's', at: 1000, type: 'tick', body: JSON.stringify({ type: 'tick', depth: 0, meta: { source: 'driver' }, at: 1000 }) });
  const recording: Recording = {
    session: 's',
    config: AgentConfig.parse({ seed: 1, heartbeatMs: 0, stallThreshold: 1_000_000 }),
    firstSeq: 1,
    base: mind.toJSON(),
    startAt: 1000,
    // Three ticks at once: the second and third wait for the first pass, whose read settles at 1003.
    signals: (async function* () {
      yield [tick(1), tick(2), tick(3)];
    })(),
    effects: async (key) => ({ ...key, at: key.cycle === 1 ? 1003 : 1008, tool: 'slow_read', name: 'read slowly', outcome: 'ok', value: `page ${key.cycle}` }),
    stop: { at: 1008, reason: 'stop command' },
  };
  const events: AgentEvent[] = [];
  await replayOn(recording, { tools: [reader] }, (event) => events.push(event));
  const actions = events.filter((event) => event.kind === 'action');
  t.deepEqual(
    actions.map((action) => [action.summary, action.at]),
    [
      ['read page 1', 1000],
      ['at once', 1003],
      ['read page 3', 1003],
    ],
  );
  t.like(events.at(-1), { kind: 'session', state: 'stopped', at: 1008 });
});
