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

/** A stream standing for stdout, and what has been written to it so far. */
function capturedOutput(): { stdout: PassThrough; printed: () => string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stdout, printed: () => text };
}

test('every sink of a shared stream writes the same text, serialised once per event', async (t) => {
  const store = await SqliteStore.open(join(mkdtempSync(join(tmpdir(), 'ooda-json-')), 'a.db'));
  const { stdout, printed } = capturedOutput();
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
  t.deepEqual(printed().trimEnd().split('\n'), expected);
  const rows = await store.all<{ seq: number; kind: string; body: string }>('SELECT seq, kind, body FROM events ORDER BY seq');
  t.deepEqual(
    rows.map((r) => JSON.stringify({ kind: r.kind, seq: r.seq, session: 's1', cycle: r.seq, at: 1000 + r.seq, ...JSON.parse(r.body) })),
    expected,
  );
  await store.close();
});

test('an event serialised again after another one still gets its own text', async (t) => {
  const { stdout, printed } = capturedOutput();
  const lines = toNdjson(stdout);
  const counts: number[] = [];
  const [a, b] = [countedDecision(1, counts), countedDecision(2, counts)];
  for (const event of [a, b, a]) lines.next(event);
  await lines.flushed();
  t.deepEqual(printed().trimEnd().split('\n'), [a, b, a].map((e) => JSON.stringify(e)));
});

/** A value nested `levels` deep: [[[…]]]. */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

test('an event nested deeper than the store can hold is written as a critical error standing for it, and the events around it are stored', async (t) => {
  const store = await SqliteStore.open(join(mkdtempSync(join(tmpdir(), 'ooda-json-')), 'deep.db'));
  const { stdout, printed } = capturedOutput();
  const events$ = new Subject<AgentEvent>();
  const lines = toNdjson(stdout);
  const storeErrors: Error[] = [];
  const sink = toSqlite(store, { onError: (error) => storeErrors.push(error) });
  events$.subscribe(lines);
  events$.subscribe(sink);
  const counts: number[] = [];
  const deep = { ...JSON.parse(JSON.stringify(countedDecision(2, counts))), input: nested(1200) } as AgentEvent;
  const events = [countedDecision(1, counts), deep, countedDecision(3, counts)];
  for (const event of events) events$.next(event);
  events$.complete();
  await Promise.all([lines.flushed(), sink.flushed()]);

  t.deepEqual(storeErrors, [], 'the store wrote every batch');
  const rows = await store.all<{ seq: number; kind: string; body: string }>('SELECT seq, kind, body FROM events ORDER BY seq');
  t.deepEqual(rows.map((r) => [r.seq, r.kind]), [[1, 'decision'], [2, 'error'], [3, 'decision']]);
  const standIn = JSON.parse(printed().trimEnd().split('\n')[1]!) as { kind: string; seq: number; severity: string; message: string };
  t.like(standIn, { kind: 'error', seq: 2, severity: 'critical' });
  t.is(standIn.message, 'a decision event nested more than 900 levels deep (objects and arrays within one another), more than the store can hold: this error stands for it wherever events are written');
  t.is(JSON.parse(rows[1]!.body).message, standIn.message, 'the store holds the same stand-in as stdout');
  await store.close();
});

test('an event nested deep, but within the limit, or holding brackets in its strings, is written as it is', async (t) => {
  const { stdout, printed } = capturedOutput();
  const lines = toNdjson(stdout);
  const counts: number[] = [];
  const base = JSON.parse(JSON.stringify(countedDecision(1, counts)));
  const events = [
    { ...base, seq: 1, input: nested(895) },
    { ...base, seq: 2, input: { text: '[{'.repeat(2000) + '\\"[' } },
  ] as AgentEvent[];
  for (const event of events) lines.next(event);
  await lines.flushed();
  t.deepEqual(printed().trimEnd().split('\n'), events.map((e) => JSON.stringify(e)));
});
