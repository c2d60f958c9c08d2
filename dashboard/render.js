// Drawing the dashboard from its state, at most once per animation frame:
// header counters, goal tree (goalTree.js, with plans.js), decision cards,
// memory, cycle rate, alerts, questions.js and reflection.js.
import { bars, parseBreakdown } from './breakdown.js';
import { $, el, isolated, setIfChanged, showInOrder } from './dom.js';
import { fadeIn } from './entryFade.js';
import { goalTitle, renderGoals } from './goalTree.js';
import { renderQuestions } from './questions.js';
import { renderReflection } from './reflection.js';
import { RATE_SAMPLES, state } from './state.js';

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
  renderHeader();
  renderGoals();
  renderDecisions();
  renderMemory();
  renderRate();
  renderAlerts();
  renderQuestions();
  renderReflection();
}

/** The header: session, counters and the paused badge. */
function renderHeader() {
  setIfChanged($('session'), 'textContent', state.session || '—');
  for (const counter of ['cycle', 'facts', 'episodes']) setIfChanged($(counter), 'textContent', String(state[counter]));
  setIfChanged($('paused'), 'hidden', !state.paused);
}

function renderDecisions() {
  for (const d of state.decisions) drawDecision(d);
  showInOrder($('decisions'), state.decisions.map((d) => d.card.item));
  setIfChanged($('decision-empty'), 'hidden', state.decisions.length > 0);
}

/**
 * Draws a decision's card. The card is made once (its entry animation plays
 * once); after that only a part whose value changed is replaced: the outcome
 * when the action comes, the alternatives and impasse when the decision event
 * fills in the snapshot's copy. Its other nodes stay as they are, under a
 * flood of events too.
 */
function drawDecision(d) {
  d.card ??= newCard(d);
  fill(d.card.outcome, d.outcome, (o) => el('span', { class: 'outcome', 'data-status': o.status, 'data-progress': o.progress }, o.status === 'ok' ? o.progress : o.status));
  fill(d.card.alternatives, d.alternatives, (alternatives) => (alternatives.length ? el('div', { class: 'alternatives' }, 'also considered', ...alternatives.slice(0, 4).map((a) => el('span', {}, `${a.tool} ${a.score.toFixed(2)}`))) : null));
  fill(d.card.impasse, d.impasse, (impasse) => el('div', { class: 'impasse' }, `impasse: ${impasse}`));
}

/** A decision's card, its outcome, alternatives and impasse left empty: its list item, and a slot for each of them. */
function newCard(d) {
  const parsed = parseBreakdown(d.breakdown);
  const goal = state.goals.get(d.goalId);
  const [outcome, alternatives, impasse] = [slot(), slot(), slot()];
  const item = el('li', { class: 'decision', 'data-testid': 'decision', 'data-tool': d.tool },
    el('header', {},
      el('span', { class: 'tool' }, d.tool),
      el('span', { class: 'goal-ref', title: goalTitle(d.goalId, goal) }, isolated(goal?.description ?? d.goalId), ` · cycle ${d.cycle}`),
      outcome.node,
      el('span', { class: 'score' }, (parsed?.score ?? d.score).toFixed(2))),
    parsed ? bars(parsed.parts) : el('div', { class: 'mono dim' }, d.breakdown),
    alternatives.node,
    impasse.node);
  fadeIn($('decisions'), item);
  return { item, outcome, alternatives, impasse };
}

/** An empty place in a card (a comment node) for `fill` to show a value in. */
function slot() {
  return { key: undefined, node: document.createComment('') };
}

/**
 * Shows `value` in `slot`, drawn by `make` (nothing for undefined, or where
 * `make` returns null), unless the slot shows an equal value already: a
 * replayed event carries a new copy of what the snapshot said.
 */
function fill(slot, value, make) {
  const key = JSON.stringify(value);
  if (key === slot.key) return;
  const node = (value === undefined ? null : make(value)) ?? document.createComment('');
  slot.node.replaceWith(node);
  Object.assign(slot, { key, node });
}

function renderMemory() {
  const { size, capacity, pressure } = state.memory;
  $('memory-fill').style.width = `${Math.min(100, pressure * 100)}%`;
  setIfChanged($('memory-text'), 'textContent', `${size} / ${capacity} entries`);
  setIfChanged($('memory-pct'), 'textContent', `${Math.round(pressure * 100)}% pressure`);
}

function renderRate() {
  const samples = state.rate;
  const now = samples.at(-1) ?? 0;
  const peak = Math.max(1, ...samples);
  setIfChanged($('rate-now'), 'textContent', now >= 10 ? String(Math.round(now)) : now.toFixed(1));
  setIfChanged($('rate-peak'), 'textContent', String(Math.round(Math.max(0, ...samples))));
  if (samples.length < 2) return;
  const x = (i) => (i / (RATE_SAMPLES - 1)) * 300;
  const y = (v) => 76 - (v / peak) * 70;
  const offset = RATE_SAMPLES - samples.length;
  const line = samples.map((v, i) => `${i ? 'L' : 'M'}${x(i + offset).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  $('rate-line').setAttribute('d', line);
  $('rate-area').setAttribute('d', `${line} L${x(RATE_SAMPLES - 1)},80 L${x(offset)},80 Z`);
}

/** An alert's list item, made once. */
function alertItem(a) {
  if (!a.item) {
    a.item = el('li', { class: 'alert', 'data-kind': a.kind }, el('span', { class: 'when' }, `#${a.cycle}`), el('span', { class: 'what' }, a.kind), ' ', ...a.text);
    fadeIn($('alerts'), a.item);
  }
  return a.item;
}

function renderAlerts() {
  showInOrder($('alerts'), state.alerts.map(alertItem));
  setIfChanged($('alert-empty'), 'hidden', state.alerts.length > 0);
  setIfChanged($('alert-count'), 'textContent', state.alerts.length ? String(state.alerts.length) : '');
}
