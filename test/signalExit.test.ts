/**
 * SIGINT / SIGTERM / SIGHUP in the moment before a command handles them (while the
 * CLI's modules load, some hundreds of ms) end the process with exit 130 / 143 / 129
 * and a line saying nothing was written; they used to kill it (no exit code,
 * nothing said).
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finished, startCli, until, type CliResult } from './helpers/cli.js';

const EARLY = /^ooda: (SIGINT|SIGTERM|SIGHUP) received before the command started: nothing was written: exiting\n$/;

/**
 * Sends `signal` to a fresh `ooda run` after `delay` ms, trying later delays
 * while it lands too early for any handler (node itself still starting) or
 * after the command took over; the first result in the early window, else the last.
 */
async function signalWhileLoading(signal: NodeJS.Signals): Promise<CliResult> {
  let result: CliResult | undefined;
  for (let delay = 60; delay <= 700; delay += 80) {
    const db = join(mkdtempSync(join(tmpdir(), 'ooda-signal-exit-')), 'store.db');
    const child = startCli(['run', '--db', db, '--no-stdin', '--heartbeat', '0', '--goal', 'Find qzx wvy']);
    const exited = finished(child);
    await new Promise((resolve) => setTimeout(resolve, delay));
    child.kill(signal);
    result = await exited;
    if (EARLY.test(result.stderr)) return result;
  }
  return result!;
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
  test(`${signal} while the CLI loads exits ${code}, saying nothing was written`, async (t) => {
    const result = await signalWhileLoading(signal);
    t.regex(result.stderr, EARLY);
    t.is(result.code, code);
    t.is(result.signal, null, 'not killed by the signal');
    t.is(result.stdout, '');
  });
}

/**
 * A signal that comes while the thread is busy (the CLI's modules loading)
 * and is handled only once the command has taken signals over: the command
 * gets it. It used to be lost — the hand-over removed the process's listener,
 * and with it the signal libuv had taken for it — so the run went on as if it
 * had never been sent (seen: `ooda run` given SIGINT about a second after it
 * started, still running 15 s later, nothing said).
 */
test('a signal that came just before a command took SIGINT and SIGTERM over reaches the command', async (t) => {
  const bin = (file: string) => JSON.stringify(fileURLToPath(new URL(`../bin/${file}`, import.meta.url)));
  const script = `
    const { exitOnSignals } = await import(${bin('signalExit.ts')});
    const { withSignals } = await import(${bin('lifecycle.ts')});
    exitOnSignals('before the command started: nothing was written');
    process.kill(process.pid, 'SIGTERM'); // taken now, handled once the loop runs: after the hand-over below
    const { code } = await withSignals({ options: { session: 's1' } }, async (startUp) => {
      for (let i = 0; i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        startUp.check();
      }
      throw new Error('the start-up was not interrupted');
    });
    process.exitCode = code;`;
  const child = spawn(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], { stdio: 'pipe' });
  const result = await finished(child);
  t.regex(result.stderr, /SIGTERM received while starting: stopping before the run starts/);
  t.regex(result.stderr, /SIGTERM: stopped before the run started: nothing of session s1 was written\n$/);
  t.is(result.code, 143);
});

/**
 * Once a command runs, a signal is no longer said to have come "before the
 * command started": Ctrl-C on a long `ooda events` or `ooda replay` said
 * that, and that nothing was written, seconds into printing.
 */
test('SIGINT while a command runs exits 130 naming the command, not as if it had not started', async (t) => {
  const child = startCli(['repl']);
  const exited = finished(child);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  await until(() => stdout, /ooda> /);
  child.kill('SIGINT');
  const result = await exited;
  t.is(result.stderr, 'ooda: SIGINT received while ooda repl ran: exiting\n');
  t.is(result.code, 130);
});
