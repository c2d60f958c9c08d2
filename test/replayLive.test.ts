/**
 * `ooda replay` on a session that is still being written replays it as far as
 * it was stored when the replay began, like a crashed session: its signals
 * and its events are read as of one moment, so rows the live writer commits
 * during the replay are not mistaken for a divergence.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, runCli, startCli, until } from './helpers/cli.js';
import { storedEventCount } from './helpers/storedEvents.js';

test('replaying a session while its run is still writing it is identical up to what was stored', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-replay-live-')), 'live.db');
  const child = startCli(['run', '--db', db, '--session', 'live', '--no-stdin', '--pace', '1', '--max-cycles', '1000000', '--heartbeat', '0', '--goal', 'Find qzx wvy'], {
    OODA_STALL_THRESHOLD: '1000000',
  });
  const run = finished(child, 120_000);
  try {
    // More than two pages of events, so the replay reads pages while the run commits more.
    await until(() => storedEventCount(db), /^(\d{5,}|[3-9]\d{3})$/, 60_000);
    const replay = await runCli(['replay', '--db', db]);
    t.is(replay.stderr, '');
    t.regex(replay.stdout, /^identical: session live, \d+ event\(s\)\n$/);
    t.is(replay.code, 0);
  } finally {
    child.kill('SIGTERM');
    await run;
  }
});
