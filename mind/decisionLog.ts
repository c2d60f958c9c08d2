/**
 * The explicit per-goal decision log that recency and novelty are computed
 * from (seed 001): which tools were chosen for a goal, newest last.
 */
import type { Journal } from './journal.js';
import { RECENCY_PENALTIES } from './utility.js';

interface GoalHistory {
  recent: string[];
  used: Set<string>;
}

export class DecisionLog {
  private readonly byGoal = new Map<string, GoalHistory>();

  constructor(private readonly journal: Journal) {}

  /** Records that `tool` was chosen for `goalId`. */
  record(goalId: string, tool: string): void {
    let history = this.byGoal.get(goalId);
    const created = !history;
    if (!history) this.byGoal.set(goalId, (history = { recent: [], used: new Set() }));
    const h = history;
    const recentBefore = h.recent;
    const wasUsed = h.used.has(tool);
    h.recent = [...h.recent.slice(-(RECENCY_PENALTIES.length - 1)), tool];
    h.used.add(tool);
    this.journal.record(() => {
      h.recent = recentBefore;
      if (!wasUsed) h.used.delete(tool);
      if (created) this.byGoal.delete(goalId);
    });
  }

  /** 0.4 / 0.2 / 0.1 when `tool` was chosen one / two / three decisions ago on this goal. */
  recencyPenalty(goalId: string, tool: string): number {
    const recent = this.byGoal.get(goalId)?.recent;
    if (!recent) return 0;
    for (let back = 1; back <= recent.length; back++) {
      if (recent[recent.length - back] === tool) return RECENCY_PENALTIES[back - 1]!;
    }
    return 0;
  }

  /** Whether `tool` was ever chosen for this goal. */
  used(goalId: string, tool: string): boolean {
    return this.byGoal.get(goalId)?.used.has(tool) ?? false;
  }

  /** Tools chosen for a goal, newest last (at most the last three). */
  recent(goalId: string): readonly string[] {
    return this.byGoal.get(goalId)?.recent ?? [];
  }

  /** Drops a retired goal's history (not journaled: see `GoalBook.retireFinished`). */
  forget(goalId: string): void {
    this.byGoal.delete(goalId);
  }

  toJSON(): Record<string, { recent: string[]; used: string[] }> {
    const out: Record<string, { recent: string[]; used: string[] }> = {};
    for (const [goal, h] of this.byGoal) out[goal] = { recent: [...h.recent], used: [...h.used].sort() };
    return out;
  }

  load(json: Record<string, { recent: string[]; used: string[] }>): void {
    this.byGoal.clear();
    for (const [goal, h] of Object.entries(json)) this.byGoal.set(goal, { recent: [...h.recent], used: new Set(h.used) });
  }
}
