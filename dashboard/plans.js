// A goal's current plan (seed 002), drawn as a line under the goal in the goal
// tree: its attempt, strategy and order, and each step's tool and status.
import { el } from './dom.js';
import { state } from './state.js';

// How a step's status reads before its tool (its colour comes from the style sheet).
const STEP_MARKS = { Pending: '○', Active: '▸', Completed: '✓', Failed: '✗', Skipped: '–' };

/** The plan line of a goal, or null when it has no active plan. */
export function planLine(goalId) {
  const plan = state.plans.get(goalId);
  if (!plan) return null;
  const steps = plan.steps.flatMap((step, i) => [
    i ? ' → ' : '',
    el('span', { class: 'step', 'data-status': step.status, title: step.rationale ? `${step.status}: ${step.rationale}` : step.status }, `${STEP_MARKS[step.status] ?? ''}${step.tool}`),
  ]);
  const departures = plan.departures ? ` · left ${plan.departures}×` : '';
  return el('div', { class: 'plan', 'data-testid': 'plan', 'data-plan-id': plan.planId }, `plan ${plan.attempt + 1} · ${plan.strategy}, ${plan.order}${departures}: `, ...steps);
}
