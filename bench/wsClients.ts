/**
 * The client side of bench/ws.bench.ts, run as a child process so that the
 * clients do not share the server's event loop: opens `count` WebSocket
 * clients to `url`, and for every event received records the latency from
 * its `emittedNs` (process.hrtime, a system-wide monotonic clock) to now.
 * Talks to the parent over IPC: `ready` once all are open; on `report` it
 * answers with every (emittedNs, latency ms) pair, flattened, and exits.
 */
import WebSocket from 'ws';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const latencies: number[] = [];
const EMITTED = /"emittedNs":(\d+)/g;
let open = 0;

const clients = Array.from({ length: count }, () => {
  const ws = new WebSocket(url!);
  ws.on('open', () => {
    if (++open === count) process.send!({ type: 'ready' });
  });
  ws.on('message', (data) => {
    const now = Number(process.hrtime.bigint());
    // Only the stamps are needed: scanning for them keeps the clients' CPU (which
    // competes with the server on a small machine) off the measurement.
    for (const match of String(data).matchAll(EMITTED)) latencies.push(Number(match[1]), (now - Number(match[1])) / 1e6);
  });
  return ws;
});

process.on('message', (message: { type: string }) => {
  if (message.type !== 'report') return;
  process.send!({ type: 'report', latencies }, () => {
    for (const ws of clients) ws.terminate();
    process.exit(0);
  });
});
