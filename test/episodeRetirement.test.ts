/**
 * Episodic memory stays bounded: past `episodesKept`, the oldest episodes are
 * retired between passes (mind/episodicMemory.ts, Mind.checkpoint).
 */
import test from 'ava';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultMindConfig } from '../mind/config.js';
import { EpisodicMemory, type Episode } from '../mind/episodicMemory.js';
import { Journal } from '../mind/journal.js';
import { Mind } from '../mind/mind.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { AgentConfig } from '../streams/config.js';
import { replaySession } from '../streams/replay.js';
import { recordSession } from './helpers/recordSession.js';
import { runOnVirtualTime, STUCK_RUN, stimuliOf } from './mindFixtures.js';

const WORDS = ['mars', 'moon', 'orbit', 'venus', 'ring', 'comet'];
const episode = (n: number, words: string[] = [WORDS[n % WORDS.length]!]): Episode => ({
  id: `episode-${n}`,
  at: n,
  goalId: `goal-${n % 3}`,
  summary: `found ${words.join(' ')}`,
  learnings: [],
  tools: ['kg_query'],
});
const mindKeeping = (episodesKept: number): Mind => new Mind({ config: { ...defaultMindConfig(), episodesKept } });
const ids = (episodes: readonly Episode[]): string[] => episodes.map((e) => e.id);

test('the oldest episodes past episodesKept are retired at the next pass; a rollback does not bring them back', (t) => {
  const mind = mindKeeping(2);
  for (const n of [1, 2, 3]) mind.episodes.add(episode(n));
  t.is(mind.episodes.size, 3, 'nothing is retired within a pass');
  mind.checkpoint();
  t.deepEqual(ids(mind.episodes.all()), ['episode-2', 'episode-3']);
  t.is(mind.episodes.stored, 3);
  mind.episodes.add(episode(4));
  mind.rollback();
  t.deepEqual(ids(mind.episodes.all()), ['episode-2', 'episode-3'], 'the rollback undoes the new episode only');
  t.is(mind.episodes.stored, 3);
});

test('at the bound, storing an episode still changes the state hash (state-aware loop detection sees it)', (t) => {
  const mind = mindKeeping(2);
  for (const n of [1, 2]) mind.episodes.add(episode(n));
  mind.checkpoint();
  const before = mind.stateHash();
  mind.episodes.add(episode(3));
  mind.checkpoint();
  t.is(mind.episodes.size, 2);
  t.not(mind.stateHash(), before);
});

test('a saved state keeps how many episodes were retired: a restored mind has the same state hash', (t) => {
  const mind = mindKeeping(1);
  for (const n of [1, 2, 3]) mind.episodes.add(episode(n));
  mind.checkpoint();
  const state = mind.toJSON();
  t.is(state.episodesRetired, 2);
  const restored = Mind.fromJSON(JSON.parse(JSON.stringify(state)));
  t.is(restored.episodes.stored, 3);
  t.is(restored.stateHash(), mind.stateHash());
  const { episodesRetired: _retired, ...older } = state;
  t.is(Mind.fromJSON(older).episodes.stored, 1, 'a state saved before episodes were retired loads with none retired');
});

test('episodesKept: 0 keeps no episode; a negative or fractional value is a config error naming the key', (t) => {
  const mind = mindKeeping(0);
  mind.episodes.add(episode(1));
  mind.checkpoint();
  t.is(mind.episodes.size, 0);
  t.deepEqual(mind.episodes.recall('mars'), []);
  for (const bad of [-1, 2.5]) t.throws(() => AgentConfig.parse({ episodesKept: bad }), { message: /episodesKept/ });
});

// Adds, recalls (remembered between steps), retirements at checkpoints and rollbacks, in any order.
const Op = fc.oneof(
  fc.record({ op: fc.constant('add' as const), words: fc.subarray(WORDS, { minLength: 1, maxLength: 3 }) }),
  fc.record({ op: fc.constant('recall' as const), query: fc.subarray(WORDS, { minLength: 1, maxLength: 2 }), k: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('checkpoint' as const), kept: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ op: fc.constant('rollback' as const) }),
);

test('property: recall after retirements and rollbacks equals recall on a fresh memory holding the same episodes', (t) => {
  fc.assert(
    fc.property(fc.array(Op, { maxLength: 80 }), (ops) => {
      const journal = new Journal();
      const memory = new EpisodicMemory(journal);
      let made = 0;
      for (const step of ops) {
        if (step.op === 'add') memory.add(episode(made++, step.words));
        else if (step.op === 'checkpoint') {
          memory.retireOldest(step.kept);
          journal.checkpoint();
        } else if (step.op === 'rollback') journal.rollback();
        else {
          const fresh = new EpisodicMemory(new Journal());
          fresh.load(memory.toJSON(), 0);
          const query = step.query.join(' ');
          t.deepEqual(ids(memory.recall(query, step.k)), ids(fresh.recall(query, step.k)), query);
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('a long stuck run keeps at most episodesKept episodes, recalls only those, and goes on catching loops', (t) => {
  const { events, mind } = runOnVirtualTime(STUCK_RUN, { config: { maxCycles: 1500, episodesKept: 5 } });
  const consolidated = events.filter((e) => e.kind === 'consolidation').reduce((n, e) => n + (e as { episodes: number }).episodes, 0);
  t.true(consolidated > 20, `${consolidated} episodes were made`);
  t.is(mind.episodes.size, 5);
  // memory_recall also consolidates, without an event of its own.
  t.true(mind.episodes.stored >= consolidated, `${mind.episodes.stored} stored`);
  const recalled = ids(mind.episodes.recall('moons orbits planet', 3));
  t.true(recalled.length > 0, 'the kept episodes are recalled');
  t.true(recalled.every((id) => ids(mind.episodes.all()).includes(id)), 'only kept episodes are recalled');
  t.true(events.filter((e) => e.kind === 'intervention' && e.cycle > 1000).length > 5, 'loop detection goes on working');
});

test('a session that retires episodes replays identically, and its saves hold the episodes kept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'episode-retire-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'a.db');
  const config = AgentConfig.parse({ seed: 5, heartbeatMs: 0, maxCycles: 400, episodesKept: 2 });
  const agent = await recordSession(db, 'rec', config, stimuliOf(STUCK_RUN));
  t.is(agent.mind.episodes.size, 2);
  t.true(agent.mind.episodes.stored > 10, `${agent.mind.episodes.stored} episodes were made`);
  const store = await SqliteStore.open(db, { access: 'existing' });
  try {
    const latest = JSON.parse((await store.snapshot('rec', 'latest'))!.state) as { episodes: Episode[]; episodesRetired: number };
    t.deepEqual(ids(latest.episodes), ids(agent.mind.episodes.all()));
    t.is(latest.episodesRetired, agent.mind.episodes.stored - 2);
    const rows = await store.all<{ id: string }>(`SELECT id FROM episodes WHERE session = 'rec' ORDER BY at, rowid`);
    t.deepEqual(rows.map((r) => r.id), ids(latest.episodes), 'the episodes table shows the episodes of the latest save');
    t.like(await replaySession(store, 'rec'), { identical: true });
  } finally {
    await store.close();
  }
});
