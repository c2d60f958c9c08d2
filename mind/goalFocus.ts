/**
 * Which of a goal's symbols the next tool should look at: the symbols of the
 * criteria clauses not yet established, rotating with the cycles worked so
 * repeated queries move on. A clause whose words name no known symbol
 * ("comets" in a graph without comets) contributes none: there is nothing to
 * look at, and the tools that need a symbol score low.
 */
import type { Goal } from './goals.js';
import type { Mind } from './mind.js';
import { symbolStems } from './text.js';

/** Goal symbols that belong to clauses not yet established. */
export function pendingSymbols(mind: Mind, goal: Goal): string[] {
  const { symbols, clauses } = mind.goalTerms(goal);
  const open = new Set<string>();
  for (const clause of clauses) if (!clause.every((t) => goal.matched.includes(t))) for (const t of clause) open.add(t);
  return symbols.filter((s) => symbolStems(s).some((part) => open.has(part)));
}

/** The first term of the first clause not yet established (what to look up when no symbol is known). */
export function pendingTerm(mind: Mind, goal: Goal): string | undefined {
  return mind.goalTerms(goal).clauses.find((clause) => !clause.every((t) => goal.matched.includes(t)))?.find((t) => !goal.matched.includes(t));
}

/** The symbol to look at next, or undefined when the goal names no known symbol. */
export function focusSymbol(mind: Mind, goal: Goal): string | undefined {
  const pending = pendingSymbols(mind, goal);
  return pending.length > 0 ? pending[goal.cyclesWorked % pending.length] : undefined;
}
