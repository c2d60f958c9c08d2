// The latest reflection (seed 002): what it changed, how each tool did in its
// window, and working memory's pressure; redrawn only when a new one comes.
import { $, el, isolated, shortened } from './dom.js';
import { goalTitle } from './goalTree.js';
import { state } from './state.js';

let drawn = null;

/** A goal as its description where the page knows it, cut to 80 characters (whole in its tooltip, with its id), else its id. */
function goalName(goalId) {
  const goal = state.goals.get(goalId);
  return goal ? el('span', { title: goalTitle(goalId, goal) }, isolated(shortened(goal.description, 80))) : goalId;
}

/** One line per adjustment, as a sentence. */
function adjustmentLine(adjustment) {
  const { kind, reason } = adjustment;
  if (kind === 'boost' || kind === 'demote') return [goalName(adjustment.goalId), ` ${kind === 'boost' ? 'boosted' : 'demoted'} ${adjustment.from} → ${adjustment.to}: ${reason}`];
  if (kind === 'decompose') return [goalName(adjustment.goalId), ` split into ${adjustment.children.length} sub-goals: ${reason}`];
  if (kind === 'consolidate') return [`consolidated ${adjustment.episodes} episode(s), freed ${adjustment.freed}: ${reason}`];
  return [`${kind}: ${reason ?? ''}`];
}

export function renderReflection() {
  const reflection = state.reflection;
  if (reflection === drawn) return;
  drawn = reflection;
  $('reflection-empty').hidden = reflection !== null;
  if (!reflection) return $('reflection').replaceChildren();
  const tools = reflection.tools.map((t) => `${t.tool} ${t.ok}/${t.runs} ok`).join(' · ');
  const psyche = reflection.psyche?.dominant ? ` · psyche: ${reflection.psyche.dominant}` : '';
  $('reflection').replaceChildren(
    el('p', { class: 'reflection-head' }, `#${reflection.number} at cycle ${reflection.cycle} (${reflection.trigger}, over ${reflection.cycles} cycles) · pressure ${Math.round(reflection.pressure * 100)}%${psyche}`),
    el('ul', { class: 'adjustments' }, ...(reflection.adjustments.length ? reflection.adjustments.map((a) => el('li', { 'data-kind': a.kind }, ...adjustmentLine(a))) : [el('li', { class: 'dim' }, 'no adjustments')])),
    ...(tools ? [el('p', { class: 'tools dim' }, tools)] : []),
  );
}
