import test from 'ava';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { notRerun, ToolFailure, type Tool, type ToolContext } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { AgentConfig } from '../streams/config.js';
import { replaySession } from '../streams/replay.js';
import { goalStimulus } from '../streams/testing.js';
import { recordSession } from './helpers/recordSession.js';
import { contextFor } from './mindFixtures.js';

const tempDir = (t: { teardown(fn: () => void): void }): string => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-world-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** Runs a built-in tool as act would while a recording is re-run. */
async function rerun(mind: Mind, name: string, input: unknown): Promise<unknown> {
  const goal = mind.addGoal({ description: 'replayed' });
  const context: ToolContext = contextFor(mind, goal, 0, undefined, { tool: name, replaying: true });
  return mind.tools.get(name)!.execute(input, context);
}

test('while a recording is re-run, shell_exec runs no program, file_io writes no file and http_fetch sends no request; file_io still reads', async (t) => {
  const dir = tempDir(t);
  const mind = new Mind({ config: MindConfig.parse({ tools: { shellExec: true, workspace: dir, httpAllowHosts: ['127.0.0.1:9'] } }), tools: builtinTools() });
  const marker = join(dir, 'ran');
  const shell = await t.throwsAsync(rerun(mind, 'shell_exec', { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`] }), { instanceOf: ToolFailure });
  t.regex(shell!.message, /^shell_exec: not done again while a recording is re-run \(replay or crash recovery\): it would run /);
  t.false(existsSync(marker), 'the program did not run');
  const write = await t.throwsAsync(rerun(mind, 'file_io', { op: 'write', path: 'notes.txt', content: 'again' }), { instanceOf: ToolFailure });
  t.is(write!.message, 'file_io: not done again while a recording is re-run (replay or crash recovery): it would write notes.txt');
  t.false(existsSync(join(dir, 'notes.txt')));
  const fetch = await t.throwsAsync(rerun(mind, 'http_fetch', { url: 'http://127.0.0.1:9/page' }), { instanceOf: ToolFailure });
  t.is(fetch!.message, 'http_fetch: not done again while a recording is re-run (replay or crash recovery): it would GET http://127.0.0.1:9/page');
  appendFileSync(join(dir, 'facts.txt'), 'Mars has two moons.');
  t.like(await rerun(mind, 'file_io', { op: 'read', path: 'facts.txt' }), { ok: true, content: 'Mars has two moons.' });
});

test('ooda replay tells tools it re-runs a recording: a tool that wrote a line per run writes none again, and the replay names the divergence', async (t) => {
  const dir = tempDir(t);
  const log = join(dir, 'stamps.log');
  const stamper: Tool<{ line: string }> = {
    name: 'stamp_log',
    description: 'Stamp a line into the log file',
    keywords: ['stamp', 'log', 'line', 'record', 'write', 'journal', 'entry', 'append', 'file', 'note', 'mark', 'register', 'ledger', 'book', 'diary', 'trace', 'audit'],
    danger: 'cautious',
    capabilities: ['fs.write'],
    input: z.object({ line: z.string() }),
    scoring: { kind: 'semantic', threshold: 0.3, multiplier: 2 },
    propose: ({ goal }) => ({ line: `stamp for ${goal.id}` }),
    execute({ line }, { replaying }) {
      if (replaying) throw notRerun('stamp_log', `append "${line}" to the log`);
      appendFileSync(log, `${line}\n`);
      return { ok: true, summary: `stamped ${line}` };
    },
  };
  const db = join(dir, 'a.db');
  const config = AgentConfig.parse({ seed: 2, heartbeatMs: 0, maxCycles: 3, stallThreshold: 1_000_000 });
  await recordSession(db, 'rec', config, [goalStimulus('Stamp a log line into the audit journal', { criteria: 'zzqx' })], { tools: [stamper] });
  const stamped = readFileSync(log, 'utf8');
  t.true(stamped.split('\n').filter(Boolean).length > 0, 'the recorded run stamped the log');
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    const result = await replaySession(store, 'rec', { tools: [stamper] });
    t.false(result.identical);
    t.regex(JSON.stringify(result), /not done again while a recording is re-run/);
  } finally {
    await store.close();
  }
  t.is(readFileSync(log, 'utf8'), stamped, 'nothing was appended during the replay');
});
