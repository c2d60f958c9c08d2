import test from 'ava';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MindConfig } from '../mind/config.js';
import { runProgram } from '../mind/tools/programRun.js';
import { Mind } from '../mind/mind.js';
import { ToolFailure, type ToolOutput } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import type { Decision } from '../mind/toolSelection.js';
import { parentAndChild, stillRunning } from './helpers/processes.js';
import { runDecision } from './mindFixtures.js';

/** Runs shell_exec, enabled, the way act does. */
function shell(shellTimeoutMs: number, command: string, args: string[]): Promise<ToolOutput> {
  const mind = new Mind({ config: MindConfig.parse({ tools: { shellExec: true, shellTimeoutMs } }), tools: builtinTools() });
  const goal = mind.addGoal({ description: 'run a program' });
  return runDecision(mind, goal, { goalId: goal.id, tool: 'shell_exec', input: { command, args } } as Decision);
}

test('shell_exec: at the timeout the program and the processes it started are killed, even when they ignore SIGTERM', async (t) => {
  t.timeout(60_000);
  const pidFile = join(await mkdtemp(join(tmpdir(), 'ooda-shell-')), 'pids.json');
  const out = await shell(4_000, process.execPath, parentAndChild(pidFile, { ignoreSigterm: true }));
  t.false(out.ok);
  t.regex(out.summary, /timed out after 4000 ms$/);
  t.like(out.data, { exitCode: null, timedOut: true });
  const pids = JSON.parse(readFileSync(pidFile, 'utf8')) as number[];
  t.deepEqual(await stillRunning(pids), [], 'the program and its child are gone');
});

test('shell_exec: a program that writes more than 1 MiB is stopped and reported as such, with the start of its output', async (t) => {
  const out = await shell(20_000, process.execPath, ['-e', `process.stdout.write('x'.repeat(3 * 1048576))`]);
  t.false(out.ok);
  t.regex(out.summary, /stopped: more than 1048576 bytes on stdout$/);
  t.is(out.content, 'x'.repeat(4000));
  t.like(out.data, { exitCode: null, timedOut: false, cut: 'stdout' });
});

test.serial('shell_exec: many programs at once share one exit listener (no MaxListenersExceededWarning), and it is gone when they end', async (t) => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning.name);
  process.on('warning', onWarning);
  const before = process.listenerCount('exit');
  const runs = Array.from({ length: 15 }, () => runProgram(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], { signal: AbortSignal.timeout(30_000), maxBytes: 100 }));
  t.is(process.listenerCount('exit'), before + 1);
  t.deepEqual((await Promise.all(runs)).map((run) => run.exitCode), Array.from({ length: 15 }, () => 0));
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', onWarning);
  t.deepEqual(warnings, []);
  t.is(process.listenerCount('exit'), before);
});

test('shell_exec: a NUL byte in the command or an argument is a transient tool failure naming the problem, not a critical tool bug', async (t) => {
  for (const [command, args] of [[process.execPath, ['-e', 'a\u0000b']], ['ec\u0000ho', []]] as const) {
    const error = await t.throwsAsync(shell(5_000, command, [...args]), { instanceOf: ToolFailure });
    t.regex(error!.message, /^shell_exec: cannot run .*: ERR_INVALID_ARG_VALUE$/);
  }
});
