import test from 'ava';
import { Subject } from 'rxjs';
import WebSocket from 'ws';
import { toWebSocket } from '../sinks/toWebSocket.js';
import { WsServer } from '../sinks/wsServer.js';
import type { AgentEvent } from '../streams/events.js';

const SESSION = 'replay-history';

/** What a client connecting to `url` is sent first: the replayed events (no snapshot is configured). */
async function replayed(url: string): Promise<AgentEvent[]> {
  const socket = new WebSocket(url);
  try {
    const data = await new Promise<WebSocket.RawData>((resolve, reject) => socket.once('message', (message) => resolve(message)).once('error', reject));
    const message = JSON.parse(String(data));
    return Array.isArray(message) ? message : [message];
  } finally {
    socket.close();
  }
}

/** An agent's events: the past events are published, then `count` heartbeats push them out of the last 100. */
function history(events$: Subject<AgentEvent>): void {
  let seq = 0;
  const publish = (body: object) => events$.next({ seq: ++seq, session: SESSION, cycle: seq, at: 0, ...body } as AgentEvent);
  const plan = (goalId: string, status: string, change: string, planId = `plan-${goalId}`) =>
    publish({ kind: 'plan', goalId, planId, attempt: 0, strategy: 'Knowledge', order: 'explore-first', status, change, steps: [{ index: 0, tool: 'kg_query', status: 'Active', ...(change === 'created' ? { rationale: `why ${planId}` } : {}) }], departures: 0, reason: change });
  for (let i = 1; i <= 40; i++) publish({ kind: 'warning', message: `warning ${i}` });
  publish({ kind: 'reflection', number: 1, trigger: 'interval', cycles: 5, adjustments: [], tools: [], pressure: 0.1 });
  plan('goal-1', 'Active', 'created');
  plan('goal-1', 'Active', 'step');
  plan('goal-2', 'Active', 'created');
  plan('goal-2', 'Completed', 'completed');
  plan('goal-3', 'Active', 'created', 'plan-3a');
  plan('goal-3', 'Completed', 'completed', 'plan-3a');
  plan('goal-3', 'Active', 'created', 'plan-3b');
  plan('goal-3', 'Active', 'left', 'plan-3b');
  publish({ kind: 'question', questionId: 'question-1', goalId: 'goal-1', text: 'Which moon?', timeoutMs: 1000, status: 'asked' });
  publish({ kind: 'question', questionId: 'question-1', goalId: 'goal-1', text: 'Which moon?', timeoutMs: 1000, status: 'answered', answer: 'Phobos' });
  publish({ kind: 'question', questionId: 'question-2', goalId: 'goal-1', text: 'Why?', timeoutMs: 1000, status: 'asked' });
  publish({ kind: 'reflection', number: 2, trigger: 'command', cycles: 3, adjustments: [], tools: [], pressure: 0.2 });
  for (let i = 0; i < 150; i++) publish({ kind: 'heartbeat', beat: i });
}

test('a late joiner gets, before the last 100 events, the last 30 alerts, the active plans (each with the event that made it: its steps\' rationales), the last questions and the latest reflection, in seq order', async (t) => {
  const server = await WsServer.listen({ port: 0, token: 'replay-history-token' });
  t.teardown(() => server.close());
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server));
  history(events$);

  const events = await replayed(`${server.url.replace('http', 'ws')}ws`);
  const seqs = events.map((event) => event.seq);
  t.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'in seq order');
  t.is(events.filter((event) => event.kind === 'heartbeat').length, 100, 'the last 100 events');
  const kept = events.filter((event) => event.kind !== 'heartbeat').map((event) => {
    if (event.kind === 'warning') return event.message;
    if (event.kind === 'plan') return `${event.goalId} ${event.planId} ${event.change}`;
    if (event.kind === 'question') return `${event.questionId} ${event.status}`;
    return `${event.kind} ${(event as AgentEvent<'reflection'>).number}`;
  });
  t.deepEqual(kept, [
    ...Array.from({ length: 30 }, (_, i) => `warning ${i + 11}`),
    'goal-1 plan-goal-1 created',
    'goal-1 plan-goal-1 step',
    'goal-3 plan-3b created',
    'goal-3 plan-3b left',
    'question-1 answered',
    'question-2 asked',
    'reflection 2',
  ]);

  const filtered = await replayed(`${server.url.replace('http', 'ws')}ws?subscribe=question`);
  t.deepEqual(filtered.map((event) => event.kind), ['question', 'question'], 'a subscription filters them too');
});

test('with replay 0 nothing is replayed, kept events neither', async (t) => {
  const server = await WsServer.listen({ port: 0, token: 'replay-history-token' });
  t.teardown(() => server.close());
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server, { replay: 0 }));
  history(events$);
  const [first] = await replayed(`${server.url.replace('http', 'ws')}ws`);
  t.is((first as unknown as { type: string }).type, 'keepalive', 'the keepalive that follows the replay comes first');
});
