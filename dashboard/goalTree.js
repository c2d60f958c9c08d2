// The goal tree, drawn incrementally: each goal's row is made once and kept
// (keyed by the goal's object, so a snapshot's new goals get new rows); a goal
// event updates only that goal's row and moves it to its place. Rebuilding the
// whole tree on every goal event held a page with 3,000 goals near 20 fps.
import { $, el, setIfChanged, showInOrder } from './dom.js';
import { planLine } from './plans.js';
import { state } from './state.js';

// The goal tree shows at most this many goals, the most important first: thousands of rows made every redraw take most of a second.
const MAX_GOAL_ROWS = 200;
const STATUS_ORDER = { Active: 0, Suspended: 1, Completed: 2, Failed: 3 };
// One collator for every comparison: localeCompare with options makes one per call.
const byGoalId = new Intl.Collator(undefined, { numeric: true }).compare;
const byImportance = (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.priority - a.priority || byGoalId(a.goalId, b.goalId);

// Each goal's list item, row and list of sub-goals, made once per goal object.
const drawn = new WeakMap();
// A changed goal's row flashes (played on the row in place: a CSS animation plays only once per element).
const FLASH = [{ background: 'rgba(90, 209, 192, .18)' }, { background: 'transparent' }];
const moreLine = el('li', { class: 'more', 'data-testid': 'more-goals' });

/** A goal's tooltip: its id and whole description (the page cuts it to a line), and its criteria. */
export function goalTitle(goalId, goal) {
  const title = goal ? `${goalId}: ${goal.description}` : goalId;
  return goal?.criteria ? `${title}\ncriteria: ${goal.criteria}` : title;
}

/** Fills a goal's row from the goal: its status, description, tooltip and priority, and its plan below. */
function fillRow(row, goal) {
  row.dataset.status = goal.status;
  row.title = goalTitle(goal.goalId, goal);
  const plan = planLine(goal.goalId);
  row.replaceChildren(
    el('span', { class: 'status-dot' }),
    el('span', { class: 'desc' }, goal.description),
    el('span', { class: 'meta' },
      el('span', { class: 'status' }, goal.status),
      el('span', { class: 'prio', title: `priority ${goal.priority} of 255` }, el('span', { class: 'pbar' }, el('i', { style: `width:${(goal.priority / 255) * 100}%` })), goal.priority)),
    ...(plan ? [plan] : []));
}

/** The drawn row of `goal`, made on first sight, refilled when the goal changed since it was last filled (flashed when that was since the last draw). */
function rowOf(goal) {
  let entry = drawn.get(goal);
  if (!entry) {
    // Focusable by the arrow keys (goalKeys.js), not each by Tab.
    const row = el('div', { class: 'goal', 'data-goal-id': goal.goalId, tabindex: '-1' });
    entry = { item: el('li', {}, row), row, branch: el('ul'), filled: false };
    drawn.set(goal, entry);
  }
  if (!entry.filled) {
    fillRow(entry.row, goal);
    entry.filled = true;
  }
  if (state.freshGoals.has(goal.goalId)) flash(entry);
  return entry;
}

/**
 * Plays a row's flash from its start. One animation per row, played again:
 * a goal changing every frame under a fast agent had started a new one each
 * time, every one running its 1.2 s on the main thread (157 at once over
 * 102 rows), which style and paint had to redo each frame.
 */
function flash(entry) {
  if (entry.flash) {
    entry.flash.currentTime = 0;
    entry.flash.play();
  } else entry.flash = entry.row.animate(FLASH, { duration: 1200, easing: 'ease-out' });
}

/** Marks the changed goals' rows to be filled again: now if shown, else when they come into view (a goal changed below the rows shown kept its old row). */
function unfillChanged() {
  for (const goalId of state.freshGoals) {
    const goal = state.goals.get(goalId);
    const entry = goal && drawn.get(goal);
    if (entry) entry.filled = false;
  }
}

/**
 * Puts `items` in `list` in order. The changed goals' items are taken out
 * first: the others keep their relative order, so only the changed ones move
 * (moving one row to the end otherwise shifted every row after it).
 */
function reorder(list, items) {
  for (const goalId of state.freshGoals) {
    const goal = state.goals.get(goalId);
    const entry = goal && drawn.get(goal);
    if (entry?.item.parentNode === list) entry.item.remove();
  }
  showInOrder(list, items);
}

/** Redraws the goal tree when the goals changed: the most important MAX_GOAL_ROWS, and a line counting the rest. */
export function renderGoals() {
  if (!state.goalsChanged) return;
  state.goalsChanged = false;
  unfillChanged();
  const goals = [...state.goals.values()];
  const children = new Map();
  for (const goal of goals) {
    const parent = goal.parentId && state.goals.has(goal.parentId) ? goal.parentId : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(goal);
  }
  let rows = 0;
  const branch = (parentId) => {
    const items = [];
    for (const goal of (children.get(parentId) ?? []).sort(byImportance)) {
      if (rows++ >= MAX_GOAL_ROWS) break;
      const entry = rowOf(goal);
      const below = children.has(goal.goalId) ? branch(goal.goalId) : [];
      if (below.length === 0) entry.branch.remove();
      else {
        reorder(entry.branch, below);
        if (entry.branch.parentNode !== entry.item) entry.item.append(entry.branch);
      }
      items.push(entry.item);
    }
    return items;
  };
  // A changed goal's row is moved by taking it out: the keyboard's focus on it is given back.
  const focused = $('goal-tree').contains(document.activeElement) ? document.activeElement : null;
  const top = branch('');
  const hidden = goals.length - Math.min(rows, MAX_GOAL_ROWS);
  const more = `… and ${hidden} more, lower in status or priority`;
  setIfChanged(moreLine, 'textContent', more);
  reorder($('goal-tree'), hidden > 0 ? [...top, moreLine] : top);
  if (focused?.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
  state.freshGoals.clear();
  setIfChanged($('goal-empty'), 'hidden', goals.length > 0);
  const active = goals.filter((g) => g.status === 'Active').length;
  setIfChanged($('goal-count'), 'textContent', goals.length ? `${active} active / ${goals.length}` : '');
}
