// Drawing the dashboard from its state, at most once per animation frame:
// header counters, goal tree, decision cards, memory, cycle rate and alerts.
import { bars, parseBreakdown } from './breakdown.js';
import { $, el, isolated } from './dom.js';
import { RATE_SAMPLES, state } from './state.js';

// The goal tree shows at most this many goals, the most important first: thousands of rows made every redraw take most of a second.
const MAX_GOAL_ROWS = 200;

let renderQueued = false;
export function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

export function render() {
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
