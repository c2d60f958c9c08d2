/**
 * Which of a goal's symbols the next tool should look at: the symbols of the
 * criteria clauses not yet established, rotating with the cycles worked so
 * repeated queries move on. A clause whose words name no known symbol
 * ("comets" in a graph without comets) contributes none: there is nothing to
 * look at, and the tools that need a symbol score low.
 */
import type { Goal } from './goals.js';
import type { GoalTerms } from './goalTerms.js';
import type { Mind } from './mind.js';
import { symbolStems } from './text.js';

/** The last answer per goal terms (they change with the wording and the graph), with the matched terms it answered. */
const lastPending = new WeakMap<GoalTerms, { matched: readonly string[]; symbols: readonly string[] }>();

/** Goal symbols that belong to clauses not yet established. Shared: read-only. */
export function pendingSymbols(mind: Mind, goal: Goal): readonly string[] {
  const terms = mind.goalTerms(goal);
  const known = lastPending.get(terms);
  // A goal's matched list is replaced, never changed in place, when a term is matched.
  if (known?.matched === goal.matched) return known.symbols;
  const open = new Set<string>();
  for (const clause of terms.clauses) if (!clause.every((t) => goal.matched.includes(t))) for (const t of clause) open.add(t);
  const symbols = terms.symbols.filter((s) => symbolStems(s).some((part) => open.has(part)));
  lastPending.set(terms, { matched: goal.matched, symbols });
  return symbols;
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
