// The goal tree by keyboard: Tab reaches the tree, the arrow keys (and Home,
// End) move between its goals, and the goal moved to shows its description
// whole (style.css), which a mouse reads in the row's tooltip. Tabbing back
// into the tree returns to the goal chosen last, while it is shown; Tab and
// Shift+Tab leave it from any goal.
import { $ } from './dom.js';

const MOVES = {
  ArrowDown: (i) => i + 1,
  ArrowUp: (i) => i - 1,
  Home: () => 0,
  End: (_, last) => last,
};

export function setupGoalKeys() {
  const tree = $('goal-tree');
  let chosen = null;
  tree.addEventListener('focusin', (event) => {
    if (event.target === tree) return;
    chosen = event.target.dataset.goalId ?? chosen;
    // While a goal has the focus the tree is out of the Tab order, or Shift+Tab would land on it and be sent back to the goal.
    tree.tabIndex = -1;
  });
  tree.addEventListener('focusout', (event) => {
    if (!tree.contains(event.relatedTarget)) tree.tabIndex = 0;
  });
  // Focus on the tree itself (Tab, Shift+Tab, a click on its padding): on to the goal chosen last.
  tree.addEventListener('focus', () => {
    const row = chosen === null ? null : tree.querySelector(`.goal[data-goal-id="${CSS.escape(chosen)}"]`);
    row?.focus();
  });
  tree.addEventListener('keydown', (event) => {
    const move = MOVES[event.key];
    if (!move) return;
    const rows = [...tree.querySelectorAll('.goal')];
    if (rows.length === 0) return;
    event.preventDefault();
    const next = move(rows.indexOf(document.activeElement), rows.length - 1);
    rows[Math.max(0, Math.min(rows.length - 1, next))].focus();
  });
}
