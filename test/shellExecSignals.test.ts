import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentAndChild, stillRunning } from './helpers/processes.js';

/**
 * Starts a node process (the "agent") that runs the program `parentAndChild`
 * describes through runProgram, then `then` (code run once the program has
 * written its pids); returns how the agent process ended, what it printed,
 * and the program's pids.
 */
async function agentRunning(setUp: string, then: string, signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; pids: number[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'ooda-shell-'));
  const pidFile = join(dir, 'pids.json');
  const script = join(dir, 'agent.mts');
  const programRun = pathToFileURL(join(import.meta.dirname, '../mind/tools/programRun.ts')).href;
  await writeFile(script, `
    import { existsSync } from 'node:fs';
    import { runProgram } from ${JSON.stringify(programRun)};
    ${setUp}
    const result = runProgram(process.execPath, ${JSON.stringify(parentAndChild(pidFile, { lifeMs: 60_000 }))}, { signal: AbortSignal.timeout(60000), maxBytes: 1000 });
    const wait = setInterval(() => { if (existsSync(${JSON.stringify(pidFile)})) { clearInterval(wait); ${then} } }, 20);
    setTimeout(() => process.exit(3), 30000).unref();`);
  const agent = spawn(process.execPath, ['--import=tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  agent.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  if (signal) {
    const started = Date.now();
    while (!existsSync(pidFile) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20));
    agent.kill(signal);
  }
  const [code, ended] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => agent.on('close', (c, s) => resolve([c, s])));
  return { code, signal: ended, stdout, pids: JSON.parse(readFileSync(pidFile, 'utf8')) as number[] };
}

test('shell_exec: a program still running when the agent process exits is killed with it', async (t) => {
  t.timeout(60_000);
  const agent = await agentRunning('', 'process.exit(0);');
  t.is(agent.code, 0, 'the agent process saw the program start and exited');
  t.deepEqual(await stillRunning(agent.pids), [], 'the program and its child are gone');
});

test('shell_exec: Ctrl-C (SIGINT) to an agent process with no handler of its own ends it, and reaches the program and its child', async (t) => {
  t.timeout(60_000);
  const agent = await agentRunning('', '', 'SIGINT');
  t.is(agent.signal, 'SIGINT', 'the agent process ended by SIGINT, as Node does by default');
  t.deepEqual(await stillRunning(agent.pids), [], 'the program and its child are gone');
});

test('shell_exec: SIGINT to an agent process that handles it (as the CLI does) reaches the program, which ends at once', async (t) => {
  t.timeout(60_000);
  const agent = await agentRunning(
    `process.on('SIGINT', () => console.log('agent: stopping'));`,
    `result.then((run) => { console.log(JSON.stringify(run)); process.exit(0); });`,
    'SIGINT',
  );
  t.is(agent.code, 0);
  t.regex(agent.stdout, /^agent: stopping\n/, 'the agent’s own handler ran');
  t.like(JSON.parse(agent.stdout.split('\n')[1]!), { exitCode: null, stdout: '', stderr: '' }, 'the program ended by the signal, not by the 60 s timeout');
  t.notRegex(agent.stdout, /"stopped"/);
  t.deepEqual(await stillRunning(agent.pids), [], 'the program and its child are gone');
});
