/**
 * Which of a goal's symbols the next tool should look at: the symbols of the
 * criteria clauses not yet established, rotating with the cycles worked so
 * repeated queries move on; all goal symbols once every clause is covered.
 */
import type { Goal } from './goals.js';
import type { Mind } from './mind.js';
import { symbolStems } from './text.js';

/** Goal symbols that belong to clauses not yet established (all goal symbols when none do). */
export function pendingSymbols(mind: Mind, goal: Goal): string[] {
  const { symbols, clauses } = mind.goalTerms(goal);
  const open = new Set<string>();
  for (const clause of clauses) if (!clause.every((t) => goal.matched.includes(t))) for (const t of clause) open.add(t);
  const pending = symbols.filter((s) => symbolStems(s).some((part) => open.has(part)));
  return pending.length > 0 ? pending : symbols;
}

/** The symbol to look at next, or undefined when the goal names no known symbol. */
export function focusSymbol(mind: Mind, goal: Goal): string | undefined {
  const pending = pendingSymbols(mind, goal);
  return pending.length > 0 ? pending[goal.cyclesWorked % pending.length] : undefined;
}
