// ooda-rx live dashboard: connects to /ws on the page's own host, starts from
// the server's snapshot, applies events as they arrive and redraws at most
// once per animation frame. Reconnects with back-off when the agent restarts.
// Protocol: streams/wsProtocol.ts. No framework, no build step.

const MAX_DECISIONS = 6;
const MAX_ALERTS = 30;
const RATE_SAMPLES = 60;
const ALERT_KINDS = new Set(['loop', 'intervention', 'error', 'warning', 'rejected']);
const FINISHED = new Set(['Completed', 'Failed']);
const HEADER_KEYS = new Set(['kind', 'seq', 'session', 'cycle', 'at']);
// The connection is stale after this many keepalive intervals without a frame.
const STALE_INTERVALS = 2.5;
// The server's frame limit (its default maxPayload, sinks/wsServer.ts): it closes on a bigger frame with 1009.
const MAX_FRAME_BYTES = 65536;
const CLOSE_TOO_BIG = 1009;
// Longer texts are cut in toasts.
const LABEL_CHARS = 60;
// The goal tree shows at most this many goals, the most important first: thousands of rows made every redraw take most of a second.
const MAX_GOAL_ROWS = 200;

// The score parts of a decision, in the breakdown's order, with their colours.
const PARTS = [
  ['base', '--blue'],
  ['recency', '--red'],
  ['novelty', '--accent'],
  ['episodic', '--violet'],
  ['pressure', '--amber'],
  ['archetype', '--pink'],
  ['plan', '--green'],
];

/**
 * Parses a decision's breakdown string (the format of mind/utility.ts
 * formatBreakdown; this regex is parseBreakdown's). Recency is returned as the
 * signed amount it contributes (a penalty, so ≤ 0).
 */
function parseBreakdown(text) {
  const m = /^\[score=(-?\d+\.\d{2}): base=(-?\d+\.\d{2}) recency=-(\d+\.\d{2}) novelty=([+-]\d+\.\d{2}) episodic=([+-]\d+\.\d{2}) pressure=([+-]\d+\.\d{2}) archetype=([+-]\d+\.\d{3})(?: plan=([+-]\d+\.\d{2}))?\]$/.exec(text ?? '');
  if (!m) return null;
  const parts = {
    base: Number(m[2]),
    recency: -Number(m[3]),
    novelty: Number(m[4]),
    episodic: Number(m[5]),
    pressure: Number(m[6]),
    archetype: Number(m[7]),
  };
  if (m[8] !== undefined) parts.plan = Number(m[8]);
  return { score: Number(m[1]), parts };
}

const state = {
  session: '',
  cycle: 0,
  facts: 0,
  episodes: 0,
  snapshotSeq: -1,
  paused: false,
  goals: new Map(),
  decisions: [],
  alerts: [],
  memory: { size: 0, capacity: 100, pressure: 0 },
  rate: [],
  lastRateCycle: null,
  lastRateAt: 0,
  freshGoals: new Set(),
  // Whether the goals changed since the goal tree was last drawn.
  goalsChanged: true,
  // Finished goals in the order they finished, and the mind's bounds (from the snapshot): see retireFinished.
  finished: new Set(),
  kept: { finishedGoals: Infinity, episodes: Infinity },
};

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key === 'style') node.style.cssText = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  return node;
};

// ---- connection -----------------------------------------------------------

let socket = null;
let retryMs = 500;
// Why the last connection ended, shown until a connection succeeds (later failed attempts only say 1006).
let downReason = '';
let requestSeq = 0;
const pending = new Map();
// When the last frame arrived, and the server's keepalive interval (it says as the page connects; 0: none, so silence is not staleness).
let lastFrameAt = 0;
let keepaliveMs = 5000;

/**
 * The state a connection starts from, before its snapshot: should the
 * snapshot fail (the server says so and sends the events), the agent before a
 * restart would otherwise linger, and its snapshot's `seq` would keep the new
 * agent's first events from being applied.
 */
const NO_SNAPSHOT = { session: '', cycle: 0, paused: false, goals: [], memory: { size: 0, capacity: 100, pressure: 0 }, decisions: [], episodes: 0, facts: 0 };

function connect() {
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
function checkStale() {
  if (!socket || socket.readyState !== WebSocket.OPEN || keepaliveMs === 0) return;
  const silentMs = performance.now() - lastFrameAt;
  if (silentMs > keepaliveMs * STALE_INTERVALS) setConnection('stale', `stale · no data for ${Math.floor(silentMs / 1000)}s`);
}

function setConnection(stateName, text) {
  $('conn').dataset.state = stateName;
  $('conn-text').textContent = text;
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
function send(signal, label, onAccepted) {
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

/**
 * Text from outside (a goal's description, a request's label) as its own
 * bidirectional run: a right-to-left override in it (U+202E) would otherwise
 * reverse the page's own text after it on the line (`· cycle 34`, `: accepted`).
 */
function isolated(text) {
  return el('bdi', {}, text);
}

/** `labels` isolated, separated by commas. */
function isolatedList(labels) {
  return labels.flatMap((label, i) => (i ? [', ', isolated(label)] : [isolated(label)]));
}

/** `text` in quotes, cut to LABEL_CHARS characters for a toast. */
function quote(text) {
  return JSON.stringify(text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS)}…` : text);
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

// ---- state ----------------------------------------------------------------

function loadSnapshot(snapshot) {
  state.session = snapshot.session;
  state.cycle = snapshot.cycle;
  state.paused = snapshot.paused;
  state.snapshotSeq = snapshot.seq ?? -1;
  state.facts = snapshot.facts;
  state.episodes = snapshot.episodes;
  state.goals = new Map(snapshot.goals.map((g) => [g.goalId, { ...g }]));
  state.goalsChanged = true;
  // The snapshot lists finished goals in the order they finished.
  state.finished = new Set(snapshot.goals.filter((g) => FINISHED.has(g.status)).map((g) => g.goalId));
  state.kept = { finishedGoals: snapshot.kept?.finishedGoals ?? Infinity, episodes: snapshot.kept?.episodes ?? Infinity };
  state.memory = { size: snapshot.memory.size, capacity: snapshot.memory.capacity, pressure: snapshot.memory.pressure };
  state.decisions = snapshot.decisions
    .slice(-MAX_DECISIONS)
    .reverse()
    .map((d) => ({ key: `${d.cycle}:${d.goalId}`, cycle: d.cycle, goalId: d.goalId, tool: d.tool, score: d.score, breakdown: d.breakdown, alternatives: [], outcome: { status: d.status, progress: d.progress } }));
  state.alerts = [];
  state.lastRateCycle = null;
}

/**
 * Applies one event. The snapshot already includes every event up to its
 * `seq` (the replayed ones), so those only add what it lacks: decisions'
 * alternatives and the alerts; counters and goals are not touched again.
 */
function apply(event) {
  if (typeof event.cycle === 'number' && event.cycle > state.cycle) state.cycle = event.cycle;
  if (event.kind === 'decision') addDecision(event);
  if (event.kind === 'action') {
    const decision = state.decisions.find((d) => d.key === `${event.cycle}:${event.goalId}`);
    if (decision) {
      decision.outcome = { status: event.status, progress: event.progress };
      decision.drawn = false;
    }
  }
  if (ALERT_KINDS.has(event.kind)) {
    state.alerts.unshift({ kind: event.kind, cycle: event.cycle, text: summarise(event) });
    state.alerts.length = Math.min(state.alerts.length, MAX_ALERTS);
  }
  if (!(event.seq <= state.snapshotSeq)) applyLive(event);
}

/** Adds a decision, or fills in the alternatives the snapshot's copy lacks. */
function addDecision(event) {
  const key = `${event.cycle}:${event.goalId}`;
  const known = state.decisions.find((d) => d.key === key);
  if (known) {
    known.alternatives = event.alternatives ?? [];
    known.impasse = event.impasse;
    known.drawn = false;
    return;
  }
  state.decisions.unshift({ key, cycle: event.cycle, goalId: event.goalId, tool: event.tool, score: event.score, breakdown: event.breakdown, alternatives: event.alternatives ?? [], impasse: event.impasse });
  state.decisions.length = Math.min(state.decisions.length, MAX_DECISIONS);
}

/** What an event changes that the snapshot holds: session, goals, memory, counters, pause; commands' toasts. */
function applyLive(event) {
  if (event.session && event.session !== state.session) state.session = event.session;
  switch (event.kind) {
    case 'goal': {
      const goal = state.goals.get(event.goalId) ?? { goalId: event.goalId, childIds: [] };
      Object.assign(goal, { description: event.description, status: event.status, priority: event.priority });
      if (event.criteria !== undefined) goal.criteria = event.criteria;
      if (event.parentId) goal.parentId = event.parentId;
      state.goals.set(goal.goalId, goal);
      state.freshGoals.add(goal.goalId);
      state.goalsChanged = true;
      if (!FINISHED.has(goal.status)) state.finished.delete(goal.goalId);
      else if (!state.finished.has(goal.goalId)) state.finished.add(goal.goalId);
      retireFinished();
      break;
    }
    case 'observation':
    case 'action':
      // The graph's own count: tools add facts without `fact` events.
      state.facts = event.facts;
      setMemorySize(event.memorySize);
      // The mind's own count (absent before action events carried it): memory_recall consolidates without a `consolidation` event.
      if (typeof event.episodes === 'number') state.episodes = event.episodes;
      break;
    case 'orientation':
      setMemorySize(Math.round(event.pressure * state.memory.capacity));
      break;
    case 'fact':
      if (event.added) state.facts++;
      break;
    case 'consolidation':
      // The mind retires the oldest episodes past its bound, without an event.
      state.episodes = Math.min(state.episodes + event.episodes, state.kept.episodes);
      setMemorySize(state.memory.size - event.freed);
      break;
    case 'session':
      if (event.state === 'paused') state.paused = true;
      if (event.state === 'running' || event.state === 'started') state.paused = false;
      break;
    case 'command':
      toast(`${event.command}: ${event.result}`);
      break;
  }
}

/**
 * Drops the goals that finished longest ago past the mind's bound, as the mind
 * retires them (mind/goals.ts retireFinished, without an event): a goal whose
 * parent is still unfinished stays. So a page left open shows what a reload would.
 */
function retireFinished() {
  for (const goalId of state.finished) {
    if (state.finished.size <= state.kept.finishedGoals) break;
    const parentId = state.goals.get(goalId)?.parentId;
    if (parentId !== undefined && state.goals.has(parentId) && !state.finished.has(parentId)) continue;
    state.finished.delete(goalId);
    state.goals.delete(goalId);
  }
}

/** Sets working memory's entry count (and so its pressure). A reflection's pressure is not used: it is read before its consolidation. */
function setMemorySize(size) {
  state.memory.size = size;
  state.memory.pressure = size / state.memory.capacity;
}

/** One line for an alert: rejected input as `source:line: reason` (as the pretty log), else its message or reason if it has one, else its fields. */
function summarise(event) {
  if (event.kind === 'rejected') return `${event.source}${event.line ? `:${event.line}` : ''}: ${event.reason}`;
  const text = event.message ?? event.reason ?? event.description ?? event.summary;
  if (typeof text === 'string') return event.goalId ? `${event.goalId}: ${text}` : text;
  return Object.entries(event)
    .filter(([key]) => !HEADER_KEYS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`)
    .join(' ');
}

function sampleRate() {
  const now = performance.now();
  if (state.lastRateCycle !== null) {
    const perSecond = ((state.cycle - state.lastRateCycle) * 1000) / (now - state.lastRateAt);
    state.rate.push(Math.max(0, perSecond));
    if (state.rate.length > RATE_SAMPLES) state.rate.shift();
  }
  state.lastRateCycle = state.cycle;
  state.lastRateAt = now;
  scheduleRender();
}

// ---- rendering --------------------------------------------------------------

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function render() {
  $('session').textContent = state.session || '—';
  $('cycle').textContent = state.cycle;
  $('facts').textContent = state.facts;
  $('episodes').textContent = state.episodes;
  $('paused').hidden = !state.paused;
  renderGoals();
  renderDecisions();
  renderMemory();
  renderRate();
  renderAlerts();
}

const STATUS_ORDER = { Active: 0, Suspended: 1, Completed: 2, Failed: 3 };
// One collator for every comparison: localeCompare with options makes one per call.
const byGoalId = new Intl.Collator(undefined, { numeric: true }).compare;
const byImportance = (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.priority - a.priority || byGoalId(a.goalId, b.goalId);

/** A goal's tooltip: its id and whole description (the page cuts it to a line), and its criteria. */
function goalTitle(goalId, goal) {
  const title = goal ? `${goalId}: ${goal.description}` : goalId;
  return goal?.criteria ? `${title}\ncriteria: ${goal.criteria}` : title;
}

/** Redraws the goal tree when the goals changed: the most important MAX_GOAL_ROWS, and a line counting the rest. */
function renderGoals() {
  if (!state.goalsChanged) return;
  state.goalsChanged = false;
  const goals = [...state.goals.values()];
  let rows = 0;
  const children = new Map();
  for (const goal of goals) {
    const parent = goal.parentId && state.goals.has(goal.parentId) ? goal.parentId : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(goal);
  }
  const branch = (parentId) => {
    const list = el('ul');
    for (const goal of (children.get(parentId) ?? []).sort(byImportance)) {
      if (rows++ >= MAX_GOAL_ROWS) break;
      const row = el('div', { class: `goal${state.freshGoals.has(goal.goalId) ? ' flash' : ''}`, 'data-status': goal.status, 'data-goal-id': goal.goalId, title: goalTitle(goal.goalId, goal) },
        el('span', { class: 'status-dot' }),
        el('span', { class: 'desc' }, goal.description),
        el('span', { class: 'meta' },
          el('span', { class: 'status' }, goal.status),
          el('span', { class: 'prio', title: `priority ${goal.priority} of 255` }, el('span', { class: 'pbar' }, el('i', { style: `width:${(goal.priority / 255) * 100}%` })), goal.priority)));
      const item = el('li', {}, row);
      if (children.has(goal.goalId)) item.append(branch(goal.goalId));
      list.append(item);
    }
    return list;
  };
  state.freshGoals.clear();
  const tree = branch('');
  const hidden = goals.length - Math.min(rows, MAX_GOAL_ROWS);
  if (hidden > 0) tree.append(el('li', { class: 'more', 'data-testid': 'more-goals' }, `… and ${hidden} more, lower in status or priority`));
  $('goal-tree').replaceChildren(...tree.childNodes);
  $('goal-empty').hidden = goals.length > 0;
  const active = goals.filter((g) => g.status === 'Active').length;
  $('goal-count').textContent = goals.length ? `${active} active / ${goals.length}` : '';
}

function renderDecisions() {
  for (const d of state.decisions) if (!d.drawn) drawDecision(d);
  showInOrder($('decisions'), state.decisions.map((d) => d.item));
  $('decision-empty').hidden = state.decisions.length > 0;
}

/**
 * Draws a decision's card into its list item, made once: redrawing a card
 * (its outcome came) leaves the item, whose entry animation plays only once.
 */
function drawDecision(d) {
  d.item ??= el('li', { class: 'decision', 'data-testid': 'decision', 'data-tool': d.tool });
  d.drawn = true;
  const parsed = parseBreakdown(d.breakdown);
  const goal = state.goals.get(d.goalId);
  const outcome = d.outcome ? el('span', { class: 'outcome', 'data-status': d.outcome.status, 'data-progress': d.outcome.progress }, d.outcome.status === 'ok' ? d.outcome.progress : d.outcome.status) : null;
  d.item.replaceChildren(
    el('header', {},
      el('span', { class: 'tool' }, d.tool),
      el('span', { class: 'goal-ref', title: goalTitle(d.goalId, goal) }, isolated(goal?.description ?? d.goalId), ` · cycle ${d.cycle}`),
      outcome,
      el('span', { class: 'score' }, (parsed?.score ?? d.score).toFixed(2))),
    parsed ? bars(parsed.parts) : el('div', { class: 'mono dim' }, d.breakdown));
  if (d.alternatives.length) d.item.append(el('div', { class: 'alternatives' }, 'also considered', ...d.alternatives.slice(0, 4).map((a) => el('span', {}, `${a.tool} ${a.score.toFixed(2)}`))));
  if (d.impasse) d.item.append(el('div', { class: 'impasse' }, `impasse: ${d.impasse}`));
}

/**
 * Makes `nodes` the children of `list`, in order, leaving those already there
 * in place: a node taken out and put back plays its entry animation again,
 * which redrawing every card each second did (the page flickered while idle).
 */
function showInOrder(list, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...list.children]) if (!wanted.has(child)) child.remove();
  nodes.forEach((node, i) => {
    if (list.children[i] !== node) list.insertBefore(node, list.children[i] ?? null);
  });
}

/** Diverging bars around zero: half the track is a contribution of 1.0. */
function bars(parts) {
  const grid = el('div', { class: 'bars', 'data-testid': 'breakdown' });
  for (const [name, colour] of PARTS) {
    if (!(name in parts)) continue;
    const value = parts[name];
    const width = Math.min(50, Math.abs(value) * 50);
    const position = value >= 0 ? `left:50%` : `left:${50 - width}%`;
    const zero = value === 0 ? ' zero' : '';
    const sign = value < 0 || Object.is(value, -0) ? '−' : '+';
    grid.append(
      el('span', { class: 'label' }, name),
      el('span', { class: 'track' }, el('span', { class: 'bar', 'data-part': name, style: `${position};width:${width}%;background:var(${colour})` })),
      el('span', { class: `value${zero}` }, `${sign}${Math.abs(value).toFixed(name === 'archetype' ? 3 : 2)}`),
    );
  }
  return grid;
}

function renderMemory() {
  const { size, capacity, pressure } = state.memory;
  $('memory-fill').style.width = `${Math.min(100, pressure * 100)}%`;
  $('memory-text').textContent = `${size} / ${capacity} entries`;
  $('memory-pct').textContent = `${Math.round(pressure * 100)}% pressure`;
}

function renderRate() {
  const samples = state.rate;
  const now = samples.at(-1) ?? 0;
  const peak = Math.max(1, ...samples);
  $('rate-now').textContent = now >= 10 ? Math.round(now) : now.toFixed(1);
  $('rate-peak').textContent = Math.round(Math.max(0, ...samples));
  if (samples.length < 2) return;
  const x = (i) => (i / (RATE_SAMPLES - 1)) * 300;
  const y = (v) => 76 - (v / peak) * 70;
  const offset = RATE_SAMPLES - samples.length;
  const line = samples.map((v, i) => `${i ? 'L' : 'M'}${x(i + offset).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  $('rate-line').setAttribute('d', line);
  $('rate-area').setAttribute('d', `${line} L${x(RATE_SAMPLES - 1)},80 L${x(offset)},80 Z`);
}

function renderAlerts() {
  showInOrder($('alerts'), state.alerts.map((a) => (a.item ??= el('li', { class: 'alert', 'data-kind': a.kind }, el('span', { class: 'when' }, `#${a.cycle}`), el('span', { class: 'what' }, a.kind), a.text))));
  $('alert-empty').hidden = state.alerts.length > 0;
  $('alert-count').textContent = state.alerts.length || '';
}

/** Shows `text` (a string, or strings and nodes) for 6 s. */
function toast(text, isError = false) {
  const item = el('li', { class: `toast${isError ? ' error' : ''}` }, ...[text].flat());
  $('toasts').prepend(item);
  while ($('toasts').children.length > 4) $('toasts').lastChild.remove();
  setTimeout(() => item.remove(), 6000);
}

// ---- controls ----------------------------------------------------------------

// The token is kept in local storage; where the browser refuses it (cookies blocked for the site), it lasts as long as the page.
function storedToken() {
  try {
    return localStorage.getItem('ooda.token') ?? '';
  } catch {
    return '';
  }
}

function storeToken(token) {
  try {
    localStorage.setItem('ooda.token', token);
  } catch {
    // Not kept past this page; the field still holds it.
  }
}

/**
 * Takes the token from a `#token=` link into the field and storage, and out
 * of the address bar. Also on `hashchange`: the link of a restarted agent
 * (a new token) pasted into a tab already on the page changes only the hash,
 * which does not reload the page.
 */
function takeTokenFromLink() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!fromHash) return;
  storeToken(fromHash);
  $('token').value = fromHash;
  history.replaceState(null, '', location.pathname);
}

function setupControls() {
  $('token').value = storedToken();
  takeTokenFromLink();
  window.addEventListener('hashchange', takeTokenFromLink);
  $('token-form').addEventListener('submit', (event) => event.preventDefault());
  $('token').addEventListener('change', () => storeToken($('token').value.trim()));

  // Validated here (the form is novalidate) so the page can say what is wrong;
  // cleared once the agent accepts the goal, kept for correcting otherwise.
  $('goal-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const description = $('goal-description').value.trim();
    const priorityInput = $('goal-priority');
    const priority = priorityInput.value.trim();
    const badPriority = priorityInput.validity.badInput || (priority !== '' && !(/^\d+$/.test(priority) && Number(priority) <= 255));
    $('goal-description').setAttribute('aria-invalid', String(!description));
    priorityInput.setAttribute('aria-invalid', String(badPriority));
    if (!description) return toast('goal: enter a description', true);
    if (badPriority) return toast(['goal ', isolated(quote(description)), ': priority must be a whole number from 0 to 255 (leave it empty for 128)'], true);
    const signal = { type: 'goal', description };
    if (priority !== '') signal.priority = Number(priority);
    const criteria = $('goal-criteria').value.trim();
    if (criteria) signal.criteria = criteria;
    send(signal, `goal ${quote(description)}`, () => $('goal-form').reset());
  });
  for (const button of document.querySelectorAll('[data-command]')) {
    button.addEventListener('click', () => send({ type: 'command', command: button.dataset.command }, button.dataset.command));
  }
  $('legend').replaceChildren(...PARTS.map(([name, colour]) => el('span', {}, el('i', { style: `background:var(${colour})` }), name)));
}

setupControls();
connect();
setInterval(sampleRate, 1000);
setInterval(checkStale, 250);
render();
