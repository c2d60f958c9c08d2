/**
 * Store benchmarks:
 * - `store.sink.rows`: event rows/s through `toSqlite` (async sqlite3,
 *   one JSON array per INSERT, in transactions) beside `store.better-sqlite3.rows`,
 *   better-sqlite3's prepared single-row inserts in one transaction, on the same
 *   machine in the same run; the ratio is reported (target ≥ 0.5).
 * - `store.agent.cycles`: cycles/s of the full agent with every signal and
 *   event persisted (target ≥ 25 000), beside its two bounds: the same run
 *   without a store (`withoutStore`, the agent alone) and the store alone
 *   (`storeOnly`): the signals and events that run recorded for its first
 *   cycles, pushed through `toSqlite` into a fresh file with no agent running.
 * - `store.agent.cycles_with_ndjson`: the same persisted run with every event
 *   also written as NDJSON, as `ooda run` does on stdout.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { from, lastValueFrom } from 'rxjs';
import { toNdjson } from '../dist/sinks/ndjson.js';
import { SqliteStore } from '../dist/sinks/sqliteStore.js';
import type { EventRow, SignalRow } from '../dist/sinks/storeSchema.js';
import { toSqlite } from '../dist/sinks/toSqlite.js';
import { AgentConfig } from '../dist/streams/config.js';
import { createAgent } from '../dist/streams/createAgent.js';
import type { AgentEvent } from '../dist/streams/events.js';
import { eventFromRow } from '../dist/streams/storedState.js';
import { Persistence } from '../dist/streams/session.js';
import type { Stimulus } from '../dist/streams/signals.js';
import type { BenchResult } from './run.js';

function sampleEvent(seq: number): AgentEvent {
  return {
    kind: 'decision',
    seq,
    session: 'bench',
    cycle: seq,
    at: 1_700_000_000_000 + seq,
    goalId: 'goal-1',
    tool: 'kg_query',
    score: 0.85,
    breakdown: '[score=0.85: base=0.70 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.000]',
    input: { subject: 'mars' },
    alternatives: [{ tool: 'reason', score: 0.5 }],
    reason: 'highest utility',
  };
}

async function sinkRowsPerSecond(dir: string, rows: number): Promise<number> {
  const store = await SqliteStore.open(join(dir, 'sink.db'));
  const sink = toSqlite(store, { maxQueued: rows + 1 });
  const events = Array.from({ length: rows }, (_, i) => sampleEvent(i + 1));
  const start = performance.now();
  for (const event of events) sink.next(event);
  sink.complete();
  await sink.flushed();
  const seconds = (performance.now() - start) / 1000;
  await store.close();
  return rows / seconds;
}

function betterSqliteRowsPerSecond(dir: string, rows: number): number {
  const db = new Database(join(dir, 'better.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE events (seq INTEGER PRIMARY KEY, session TEXT NOT NULL, cycle INTEGER NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL)');
  db.exec('CREATE INDEX events_session_seq ON events (session, seq)');
  db.exec('CREATE INDEX events_kind ON events (kind)');
  const insert = db.prepare('INSERT INTO events (seq, session, cycle, at, kind, body) VALUES (?, ?, ?, ?, ?, ?)');
  const events = Array.from({ length: rows }, (_, i) => sampleEvent(i + 1));
  const start = performance.now();
  db.transaction(() => {
    for (const event of events) {
      const { kind, seq, session, cycle, at, ...body } = event;
      insert.run(seq, session, cycle, at, kind, JSON.stringify(body));
    }
  })();
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return rows / seconds;
}

/**
 * The full agent on real time with a persistent session: every signal and
 * event stored, a goal that never completes. With `ndjson`, every event is
 * also written as NDJSON (to a stream that discards it), as `ooda run` does
 * on stdout.
 */
async function agentCyclesPerSecond(dir: string, cycles: number, persist: boolean, ndjson = false): Promise<{ cycles: number; perSecond: number; events: number; rows: number }> {
  const config = AgentConfig.parse({ seed: 7, heartbeatMs: 0, maxCycles: cycles, stallThreshold: 10_000_000 });
  const file = join(dir, ndjson ? 'agent-ndjson.db' : 'agent.db');
  const persistence = persist ? await Persistence.open({ db: file, fresh: true }, { session: 'bench', config, log: () => undefined }) : undefined;
  const agent = createAgent({ ...persistence?.agentOptions(), config, session: 'bench' });
  const facts = Array.from({ length: 200 }, (_, i) => ({ type: 'fact', subject: `planet ${i % 40}`, predicate: i % 2 ? 'orbits' : 'has moon', object: `body ${i}` }));
  // Criteria nothing will ever satisfy: the goal stays active for the whole run.
  const goal = { type: 'goal', description: 'Find moons and orbits of planet 3', criteria: 'zzqx', priority: 200 };
  const input$ = from([...facts, goal].map((value): Stimulus => ({ source: 'bench', value })));
  const events$ = agent.run({ inputs: [input$], ...(persistence ? { hold: persistence.hold$ } : {}) });
  persistence?.attach(agent, events$);
  if (ndjson) events$.subscribe(toNdjson(new Writable({ write: (_chunk, _encoding, done) => done() })));
  let count = 0;
  events$.subscribe(() => count++);
  const done = lastValueFrom(events$);
  const start = performance.now();
  events$.connect();
  await done;
  await persistence?.close('bench done');
  const seconds = (performance.now() - start) / 1000;
  if (!persistence) return { cycles: agent.mind.cycle, perSecond: agent.mind.cycle / seconds, events: count, rows: 0 };
  const check = await SqliteStore.open(file);
  const { n } = (await check.get<{ n: number }>('SELECT count(*) AS n FROM events'))!;
  await check.close();
  if (n !== count) throw new Error(`${count} events emitted but ${n} stored`);
  return { cycles: agent.mind.cycle, perSecond: agent.mind.cycle / seconds, events: count, rows: n };
}

/**
 * The store alone: the rows a persisted agent run recorded for its first
 * `cycles` cycles (read back and parsed before the clock starts), pushed
 * through `toSqlite` into a fresh file in the order they were made. Cycles/s
 * here bound the persisted agent even if the agent cost nothing.
 */
async function storeOnlyCyclesPerSecond(dir: string, recorded: string, cycles: number): Promise<number> {
  const source = await SqliteStore.open(recorded, { access: 'read' });
  const events = (await source.all<EventRow>('SELECT * FROM events WHERE cycle <= ? ORDER BY seq', [cycles])).map(eventFromRow);
  const lastAt = events.at(-1)?.at ?? 0;
  const signals = (await source.all<SignalRow>('SELECT * FROM signals WHERE at <= ? ORDER BY id', [lastAt])).map((row) => ({ ...row, body: JSON.parse(row.body) as unknown }));
  await source.close();
  const store = await SqliteStore.open(join(dir, 'store-only.db'));
  const sink = toSqlite(store, { maxQueued: events.length + signals.length + 1 });
  const start = performance.now();
  let s = 0;
  for (const event of events) {
    while (s < signals.length && signals[s]!.at <= event.at) sink.insert('signals', signals[s++]!);
    sink.next(event);
  }
  while (s < signals.length) sink.insert('signals', signals[s++]!);
  sink.complete();
  await sink.flushed();
  const seconds = (performance.now() - start) / 1000;
  await store.close();
  return cycles / seconds;
}

export default async function storeBench({ quick }: { quick: boolean }): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-bench-'));
  try {
    const rows = quick ? 50_000 : 300_000;
    const better = betterSqliteRowsPerSecond(dir, rows);
    const sink = await sinkRowsPerSecond(dir, rows);
    const agent = await agentCyclesPerSecond(dir, quick ? 5_000 : 50_000, true);
    const storeOnly = await storeOnlyCyclesPerSecond(dir, join(dir, 'agent.db'), quick ? 5_000 : 20_000);
    const bare = await agentCyclesPerSecond(dir, quick ? 5_000 : 50_000, false);
    const withStdout = await agentCyclesPerSecond(dir, quick ? 5_000 : 50_000, true, true);
    return [
      { bench: 'store.better-sqlite3.rows', value: Math.round(better), unit: 'rows/s', rows, note: 'prepared single-row inserts, one transaction' },
      { bench: 'store.sink.rows', value: Math.round(sink), unit: 'rows/s', rows, ratio: Number((sink / better).toFixed(2)), target: '>= 0.5 of better-sqlite3' },
      { bench: 'store.agent.cycles', value: Math.round(agent.perSecond), unit: 'cycles/s', cycles: agent.cycles, events: agent.events, storedEvents: agent.rows, withoutStore: Math.round(bare.perSecond), storeOnly: Math.round(storeOnly), target: '>= 25000' },
      { bench: 'store.agent.cycles_with_ndjson', value: Math.round(withStdout.perSecond), unit: 'cycles/s', cycles: withStdout.cycles, note: 'as ooda run: every event stored and written as NDJSON (each serialised once for both)' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
