/**
 * SIGINT / SIGTERM in the moment before a command handles them (while the
 * CLI's modules load, some hundreds of ms) end the process with exit 130 / 143
 * and a line saying nothing was written; they used to kill it (no exit code,
 * nothing said).
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, startCli, type CliResult } from './helpers/cli.js';

const EARLY = /^ooda: (SIGINT|SIGTERM) received before the command started: nothing was written: exiting\n$/;

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

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  test(`${signal} while the CLI loads exits ${code}, saying nothing was written`, async (t) => {
    const result = await signalWhileLoading(signal);
    t.regex(result.stderr, EARLY);
    t.is(result.code, code);
    t.is(result.signal, null, 'not killed by the signal');
    t.is(result.stdout, '');
  });
}
