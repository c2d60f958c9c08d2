// The dashboard's connection to the agent: /ws on the page's own host, with
// back-off reconnects, staleness from keepalives, and requests (signals with
// the token) matched to their answers. Protocol: streams/wsProtocol.ts.
import { $, isolated, isolatedList, setIfChanged, toast } from './dom.js';
import { scheduleRender } from './render.js';
import { apply, loadSnapshot } from './state.js';

// The connection is stale after this many keepalive intervals without a frame.
const STALE_INTERVALS = 2.5;
// The server's frame limit (its default maxPayload, sinks/wsServer.ts): it closes on a bigger frame with 1009.
const MAX_FRAME_BYTES = 65536;
const CLOSE_TOO_BIG = 1009;

let socket = null;
let retryMs = 500;
// Why the last connection ended, shown until a connection succeeds (later failed attempts only say 1006).
let downReason = '';
let requestSeq = 0;
const pending = new Map();
// When the last frame arrived, and the server's keepalive interval (it says as the page connects; 0: none, so silence is not staleness).
let lastFrameAt = 0;
let keepaliveMs = 5000;
// The connection state last told to screen readers (setConnection).
let announced = '';

/**
 * The state a connection starts from, before its snapshot: should the
 * snapshot fail (the server says so and sends the events), the agent before a
 * restart would otherwise linger, and its snapshot's `seq` would keep the new
 * agent's first events from being applied.
 */
const NO_SNAPSHOT = { session: '', cycle: 0, paused: false, goals: [], memory: { size: 0, capacity: 100, pressure: 0 }, decisions: [], episodes: 0, facts: 0 };

export function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  setConnection('connecting', 'connecting…');
  socket = new WebSocket(url);
  socket.addEventListener('open', () => {
    retryMs = 500;
    downReason = '';
    lastFrameAt = performance.now();
    loadSnapshot(NO_SNAPSHOT);
    setConnection('live', 'live');
  });
  socket.addEventListener('message', (message) => {
    lastFrameAt = performance.now();
    if ($('conn').dataset.state === 'stale') setConnection('live', 'live');
    receive(JSON.parse(message.data));
  });
  socket.addEventListener('close', (event) => {
    if (event.code === 4008) downReason = 'dropped (too slow)';
    else if (event.code === 1001) downReason = event.reason || 'agent stopped';
    else if (event.code === CLOSE_TOO_BIG) {
      downReason = `closed: message too big (${CLOSE_TOO_BIG})`;
      refusedAsTooBig();
    }
    unanswered(downReason || `closed with ${event.code}`);
    setConnection('down', `${downReason || 'disconnected'} · retrying in ${(retryMs / 1000).toFixed(1)}s`);
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 5000);
  });
}

/** Marks an open connection stale when no frame (not even a keepalive) came for a few intervals. */
export function checkStale() {
  if (!socket || socket.readyState !== WebSocket.OPEN || keepaliveMs === 0) return;
  const silentMs = performance.now() - lastFrameAt;
  if (silentMs > keepaliveMs * STALE_INTERVALS) setConnection('stale', `stale · no data for ${Math.floor(silentMs / 1000)}s`);
}

/** What a screen reader is told as the connection turns `stateName`; nothing for `connecting` (the first attempt, or a retry while down). */
function announcement(stateName) {
  if (stateName === 'live') return 'Connected to the agent.';
  if (stateName === 'stale') return 'The connection is stale: no data from the agent.';
  if (stateName === 'down') return `Disconnected from the agent${downReason ? ` (${downReason})` : ''}; reconnecting.`;
  return '';
}

/**
 * Shows the connection's state and `text`. The polite live region
 * (#conn-announce) is told only when the state changes: not as each retry
 * counts down or each second of a stale connection goes by.
 */
function setConnection(stateName, text) {
  setIfChanged($('conn').dataset, 'state', stateName);
  setIfChanged($('conn-text'), 'textContent', text);
  const message = announcement(stateName);
  if (!message || stateName === announced) return;
  announced = stateName;
  $('conn-announce').textContent = message;
}

function receive(message) {
  if (Array.isArray(message)) message.forEach(apply);
  else if (message.type === 'snapshot') loadSnapshot(message);
  else if (message.type === 'ack' || message.type === 'error') answer(message);
  else if (message.type === 'keepalive') keepaliveMs = message.intervalMs;
  else if (message.kind) apply(message);
  scheduleRender();
}

/**
 * Sends a signal with the token; `onAccepted` runs when the server acks it.
 * A frame over the server's limit is refused here, naming its size: the
 * server would close the connection instead of answering.
 */
export function send(signal, label, onAccepted) {
  const token = $('token').value.trim();
  if (!token) return toast('Enter the control token first (printed on the agent\'s stderr).', true);
  if (!socket || socket.readyState !== WebSocket.OPEN) return toast('Not connected to the agent.', true);
  const id = `ui-${++requestSeq}`;
  const frame = JSON.stringify({ id, token, signal });
  const bytes = new TextEncoder().encode(frame).length;
  if (bytes > MAX_FRAME_BYTES) return toast(`${signal.type} too long: ${bytes} bytes, the limit is ${MAX_FRAME_BYTES}`, true);
  pending.set(id, { label, onAccepted });
  socket.send(frame);
}

/** The server closed with 1009 (a frame over its limit, if set below the page's): the unanswered requests are named. */
function refusedAsTooBig() {
  const labels = [...pending.values()].map((request) => request.label);
  pending.clear();
  toast([...(labels.length ? isolatedList(labels) : ['a message']), `: refused by the server as too big (closed with ${CLOSE_TOO_BIG}, over its frame limit)`], true);
}

/** The connection closed before some requests were answered: they are named, as they may or may not have been taken. */
function unanswered(why) {
  if (pending.size === 0) return;
  const labels = [...pending.values()].map((request) => request.label);
  pending.clear();
  toast([...isolatedList(labels), `: no answer before the connection closed (${why}); it may not have been taken`], true);
}

function answer(message) {
  const request = message.id ? pending.get(message.id) : undefined;
  if (message.id) pending.delete(message.id);
  if (message.type === 'ack') {
    if (request) toast([isolated(request.label), ': accepted']);
    request?.onAccepted?.();
  } else {
    toast([request ? isolated(request.label) : 'server', `: ${message.error}`], true);
  }
}
