import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Subject } from 'rxjs';
import { toNdjson } from '../sinks/ndjson.js';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { toSqlite } from '../sinks/toSqlite.js';
import type { AgentEvent } from '../streams/events.js';

/** A decision event that counts how often it is serialised (JSON.stringify calls toJSON once per serialisation). */
function countedDecision(seq: number, counts: number[]): AgentEvent {
  const event = {
    kind: 'decision',
    seq,
    session: 's1',
    cycle: seq,
    at: 1000 + seq,
    goalId: 'goal-1',
    tool: 'kg_query',
    score: 0.85,
    breakdown: '[score=0.85: base=0.70 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.000]',
    input: { about: ['mars', 'ünïcode "quoted"'] },
    alternatives: [{ tool: 'reason', score: 0.5 }],
    reason: 'kg_query scored highest',
  };
  counts[seq] = 0;
  return Object.assign(event, {
    toJSON() {
      counts[seq]!++;
      const { toJSON: _, ...plain } = this as typeof event & { toJSON: unknown };
      return plain;
    },
  }) as unknown as AgentEvent;
}

test('every sink of a shared stream writes the same text, serialised once per event', async (t) => {
  const store = await SqliteStore.open(join(mkdtempSync(join(tmpdir(), 'ooda-json-')), 'a.db'));
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const events$ = new Subject<AgentEvent>();
  const lines = toNdjson(stdout);
  const sink = toSqlite(store);
  events$.subscribe(lines);
  events$.subscribe(sink);
  const counts: number[] = [];
  const events = [1, 2, 3].map((seq) => countedDecision(seq, counts));
  for (const event of events) events$.next(event);
  events$.complete();
  await Promise.all([lines.flushed(), sink.flushed()]);

  t.deepEqual(counts.slice(1), [1, 1, 1], 'each event serialised once for both sinks');
  const expected = events.map((e) => JSON.stringify(e));
  t.deepEqual(printed.trimEnd().split('\n'), expected);
  const rows = await store.all<{ seq: number; kind: string; body: string }>('SELECT seq, kind, body FROM events ORDER BY seq');
  t.deepEqual(
    rows.map((r) => JSON.stringify({ kind: r.kind, seq: r.seq, session: 's1', cycle: r.seq, at: 1000 + r.seq, ...JSON.parse(r.body) })),
    expected,
  );
  await store.close();
});

test('an event serialised again after another one still gets its own text', async (t) => {
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const lines = toNdjson(stdout);
  const counts: number[] = [];
  const [a, b] = [countedDecision(1, counts), countedDecision(2, counts)];
  for (const event of [a, b, a]) lines.next(event);
  await lines.flushed();
  t.deepEqual(printed.trimEnd().split('\n'), [a, b, a].map((e) => JSON.stringify(e)));
});
