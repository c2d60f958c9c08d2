/**
 * Replaying sessions in which signals came in while a pass waited on a tool:
 * they queue behind it, and enter (and are recorded) as it ends.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, type Subject } from 'rxjs';
import type { Tool } from '../mind/tool.js';
import type { SignalRow } from '../sinks/storeSchema.js';
import { AgentConfig } from '../streams/config.js';
import type { Agent } from '../streams/createAgent.js';
import { replaySession } from '../streams/replay.js';
import type { Stimulus } from '../streams/signals.js';
import { factStimulus, goalStimulus } from '../streams/testing.js';
import { recordSession } from './helpers/recordSession.js';
import { scriptedTool } from './helpers/runtime.js';
import { withStore } from './helpers/withStore.js';

const config = AgentConfig.parse({ seed: 2, heartbeatMs: 0, maxCycles: 2, stallThreshold: 1_000_000 });
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A session whose goal's first tool run waits on an effect while `meanwhile` runs (after 5 ms: lines arrive,
 * the agent is stopped), and settles 5 ms after it; its input ends once the run has stopped or its cycles are done.
 */
async function recordWithWaitingTool(t: { teardown(fn: () => void): void }, meanwhile: (input: Subject<Stimulus>, agent: Agent) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'replay-queued-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'a.db');
  // Replayed to the run as it subscribes, which is after the store has opened.
  const input = new ReplaySubject<Stimulus>();
  let agent!: Agent;
  const waiting: Tool<{ n: number }> = scriptedTool('wait_a_while', 0.99, () => ({ ok: true, summary: 'unused' }));
  waiting.execute = async ({ n }, ctx) => {
    // The goal's first cycle waits (n: the cycles it has worked); live, `meanwhile` runs then.
    if (n > 0) return { ok: true, summary: 'at once' };
    const said = await ctx.effect('wait', async () => {
      await pause(5);
      meanwhile(input, agent);
      await pause(5);
      return 'waited';
    });
    return { ok: true, summary: said };
  };
  const done = recordSession(db, 'rec', config, input, { tools: [waiting], started: (started) => (agent = started) });
  input.next(goalStimulus('Wait a while', { criteria: 'zzqx' }));
  await done;
  return withStore(db, async (store) => ({
    signals: await store.all<SignalRow>('SELECT * FROM signals ORDER BY id'),
    events: await store.all<{ body: string; kind: string; at: number; seq: number }>('SELECT * FROM events ORDER BY seq'),
    result: await replaySession(store, 'rec', { tools: [waiting] }),
  }));
}

test('a bad line that came in while a pass waited on a tool replays identically: it is recorded, and reported, when its pass began', async (t) => {
  const { signals, events, result } = await recordWithWaitingTool(t, (input) => {
    input.next(factStimulus('Mars', 'has moon', 'Phobos'));
    input.next({ source: 'stdin', line: 3, text: 'not json' });
    input.complete();
  });
  t.like(result, { identical: true }, JSON.stringify(result, null, 1));
  const times = signals.map((row) => row.at);
  t.deepEqual(times, [...times].sort((a, b) => a - b), 'the recorded signals\' times run forward');
  const rejected = events.find((event) => event.kind === 'rejected')!;
  const perceivedFact = events.find((event) => event.kind === 'perceived' && event.body.includes('"signalType":"fact"'))!;
  t.true(rejected.at >= perceivedFact.at, 'the rejection is reported when its pass began, after the fact queued before it');
});

test('a stop command that came in with other lines while a pass waited on a tool: the run takes in the lines queued with it, and so does its replay', async (t) => {
  const { events, result } = await recordWithWaitingTool(t, (input) => {
    input.next({ source: 'stdin', value: { type: 'command', command: 'stop' } });
    input.next(factStimulus('Mars', 'has moon', 'Phobos'));
    input.next(factStimulus('Mars', 'has moon', 'Deimos'));
  });
  t.is(events.filter((event) => event.kind === 'fact').length, 2, 'the facts queued behind the stop were taken in');
  t.like(JSON.parse(events.at(-1)!.body), { state: 'stopped', reason: 'stop command' });
  t.like(result, { identical: true }, JSON.stringify(result));
});

test('a run stopped from outside (SIGTERM) while a pass waited on a tool: the stop carries its own time, the lines queued behind the pass are taken in, and the session replays identically', async (t) => {
  let stoppedAt = 0;
  const { events, result } = await recordWithWaitingTool(t, (input, agent) => {
    input.next(factStimulus('Mars', 'has moon', 'Phobos'));
    input.next(factStimulus('Mars', 'has moon', 'Deimos'));
    setTimeout(() => {
      stoppedAt = Date.now();
      agent.stop('SIGTERM');
    }, 2);
  });
  const stopped = events.at(-1)!;
  t.like(JSON.parse(stopped.body), { state: 'stopped', reason: 'SIGTERM' });
  const waitingAction = events.find((event) => event.kind === 'decision')!;
  t.true(stopped.at >= stoppedAt - 1 && stopped.at > waitingAction.at, `the stopped event carries the time of the stop (${stopped.at}, stop at ${stoppedAt}), not the waiting pass's (${waitingAction.at})`);
  t.is(events.filter((event) => event.kind === 'fact').length, 2, 'the facts queued behind the waiting pass were taken in');
  t.like(result, { identical: true }, JSON.stringify(result));
});
