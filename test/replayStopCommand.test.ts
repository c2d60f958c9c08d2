import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';

test('a session ended by the stop command replays identically: its stopped event carries the time of the stop, not of the end of draining', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-stopcmd-')), 'stop.db');
  for (let run = 0; run < 3; run++) {
    const recorded = await runCli(['run', '--db', db, '--fresh', '--goal', 'Write a poem', '--max-cycles', '100', '--heartbeat', '0'], '{"type":"command","command":"stop"}\n');
    t.is(recorded.code, 0, recorded.stderr);
    const replay = await runCli(['replay', '--db', db]);
    t.is(replay.code, 0, `run ${run}: ${replay.stdout}${replay.stderr}`);
    t.regex(replay.stdout, /identical/);
  }
});
