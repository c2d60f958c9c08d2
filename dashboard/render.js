// Drawing the dashboard from its state, at most once per animation frame:
// header counters, goal tree (goalTree.js, with plans.js), decision cards,
// memory, cycle rate, alerts, questions.js and reflection.js.
import { bars, parseBreakdown } from './breakdown.js';
import { $, el, isolated, showInOrder } from './dom.js';
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
  renderQuestions();
  renderReflection();
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
  if (!d.item) {
    d.item = el('li', { class: 'decision', 'data-testid': 'decision', 'data-tool': d.tool });
    fadeIn($('decisions'), d.item);
  }
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
  $('alert-empty').hidden = state.alerts.length > 0;
  $('alert-count').textContent = state.alerts.length || '';
}
