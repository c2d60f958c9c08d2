/**
 * WebSocket sink benchmarks:
 * - `ws-latency-p99`: 100 loopback clients (in a child process) while events
 *   are published at 500 events/s; latency from emission to receipt by the
 *   client (target: p99 < 5 ms). Also reported: the server's event-loop
 *   delay p99 (its own share of the latency) and the machine's load average.
 * - `ws-slow-client-memory`: one client that never reads while 64 MiB of
 *   events are published to it and to a reading client; the server's peak
 *   memory growth (heap + array buffers, after GC) against the 4 MiB cap
 *   (target: under the cap plus a fixed 8 MiB margin).
 * Quick mode: 1.5 s of publishing and 16 MiB for the memory run.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { Subject } from 'rxjs';
import WebSocket from 'ws';
import { DEFAULT_MAX_QUEUED_BYTES, toWebSocket } from '../dist/sinks/toWebSocket.js';
import { WsServer } from '../dist/sinks/wsServer.js';
import type { AgentEvent } from '../dist/streams/events.js';
import { fullGc } from './fullGc.js';
import type { BenchResult } from './run.js';

const CLIENTS = 100;
/** Client processes the 100 clients are spread over, so that receiving is not the bottleneck. */
const PROCESSES = Number(process.env.WS_BENCH_PROCS ?? 4);
const RATE = 500;
const MARGIN = 8 * 1024 * 1024;

/** A decision event as the agent emits it, stamped with its emission time. */
function decisionEvent(seq: number): AgentEvent {
  return {
    kind: 'decision', seq, session: 'bench', cycle: seq, at: seq,
    goalId: 'goal-1', tool: 'kg_query', score: 0.85,
    breakdown: '[score=0.85: base=0.70 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.000]',
    input: { query: 'moons of Mars' }, alternatives: [{ tool: 'memory_recall', score: 0.45 }], reason: 'highest utility',
    emittedNs: Number(process.hrtime.bigint()),
  } as AgentEvent;
}

async function latency(quick: boolean): Promise<BenchResult> {
  const server = await WsServer.listen({ port: 0 });
  const events$ = new Subject<AgentEvent>();
  events$.subscribe(toWebSocket(server, { replay: 0 }));
  const procs = Array.from({ length: PROCESSES }, () =>
    fork(new URL('./wsClients.ts', import.meta.url).pathname, [server.wsUrl, String(CLIENTS / PROCESSES)], { execArgv: ['--import=tsx'] }),
  );
  await Promise.all(procs.map((p) => once(p, 'message')));

  const durationMs = quick ? 2000 : 10_000;
  const warmupMs = quick ? 500 : 1000;
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const start = process.hrtime.bigint();
  let seq = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
      const due = Math.min(Math.floor((elapsedMs * RATE) / 1000), (durationMs * RATE) / 1000);
      while (seq < due) events$.next(decisionEvent(++seq));
      if (elapsedMs >= durationMs) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  loopDelay.disable();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const reports = await Promise.all(procs.map(async (p) => {
    p.send({ type: 'report' });
    const [report] = (await once(p, 'message')) as [{ received: number; latencies: number[] }];
    return report;
  }));
  // Events emitted while the server and the clients warm up (JIT, first GCs) are not counted.
  const measuredFrom = Number(start) + warmupMs * 1e6;
  const latencies: number[] = [];
  for (const r of reports) for (let i = 0; i < r.latencies.length; i += 2) if (r.latencies[i]! >= measuredFrom) latencies.push(r.latencies[i + 1]!);
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const report = { received: latencies.length, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? NaN };
  await server.close();
  return {
    bench: 'ws-latency-p99', value: round(report.p99), unit: 'ms', target: '< 5',
    p50: round(report.p50), max: round(report.max), clients: CLIENTS, eventsPerSecond: RATE,
    clientProcesses: PROCESSES, events: seq, deliveries: reports.reduce((n, r) => n + r.latencies.length / 2, 0), expected: seq * CLIENTS,
    warmupMs, measuredDeliveries: report.received,
    serverLoopDelayP99: round(loopDelay.percentile(99) / 1e6), loadAverage: round(loadavg()[0]!),
  };
}

async function slowClientMemory(quick: boolean): Promise<BenchResult> {
  const memory = (): number => {
    fullGc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const server = await WsServer.listen({ port: 0, closeTimeoutMs: 60_000 });
  const events$ = new Subject<AgentEvent>();
  const sink = toWebSocket(server, { replay: 0 });
  events$.subscribe(sink);
  let raw: Socket | undefined;
  const never = new WebSocket(server.wsUrl, { createConnection: (opts: any) => (raw = createConnection(opts)) } as WebSocket.ClientOptions);
  const reader = new WebSocket(server.wsUrl);
  let received = 0;
  reader.on('message', () => received++);
  await Promise.all([once(never, 'open'), once(reader, 'open')]);
  raw!.pause();

  // Buffers freed by an earlier benchmark are released after a collection, not during it: let them go before the baseline.
  fullGc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baseline = memory();
  let peak = 0;
  const text = 'x'.repeat(1000);
  const total = (quick ? 16 : 64) * 1024;
  for (let published = 0, burst = 0; published < total; burst++) {
    for (let i = 0; i < 64; i++) events$.next({ kind: 'input', seq: ++published, session: 'bench', cycle: 0, at: published, text } as AgentEvent);
    await new Promise((resolve) => setImmediate(resolve));
    if (burst % 16 === 0) peak = Math.max(peak, memory() - baseline);
  }
  peak = Math.max(peak, memory() - baseline);
  const dropped = sink.stats().dropped;
  never.terminate();
  reader.terminate();
  await server.close();
  return {
    bench: 'ws-slow-client-memory', value: round(peak / 1048576), unit: 'MiB',
    target: `< cap ${DEFAULT_MAX_QUEUED_BYTES / 1048576} MiB + margin ${MARGIN / 1048576} MiB`,
    ok: peak < DEFAULT_MAX_QUEUED_BYTES + MARGIN, publishedMiB: total / 1024, slowClientDropped: dropped === 1, readerFrames: received,
  };
}

const round = (x: number): number => Math.round(x * 100) / 100;

export default async function ({ quick }: { quick: boolean }): Promise<BenchResult[]> {
  return [await latency(quick), await slowClientMemory(quick)];
}
