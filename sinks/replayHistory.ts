/**
 * What toWebSocket sends a client that connects late, after its snapshot: the
 * last `replay` events and, from before them, the latest of the events the
 * dashboard keeps showing longer than a hundred events last on a busy agent:
 *
 * - the last 30 alerts (loop, intervention, error, warning, rejected), as many as the page lists;
 * - the latest `plan` event of each goal whose plan is active (up to 200, as many goals as the page lists),
 *   after the `created` event of that plan: only it carries the steps' rationales;
 * - the latest `question` event of each of the last 10 questions (asked, answered or expired);
 * - the latest `reflection`.
 *
 * These go first, oldest first, so every event a client is sent is in `seq` order.
 */
import type { AgentEvent, EventKind } from '../streams/events.js';

/** An event as serialised once for every client. */
export interface Serialised {
  kind: EventKind;
  seq: number;
  text: string;
  bytes: number;
}

/** A kind of event kept past the replay window: the latest event per key, up to `cap` keys (the least recently set go first). */
interface Kept {
  cap: number;
  /** The key an event is kept under. */
  key(event: AgentEvent): string;
  /** Whether the event is kept (default: yes); one that is not clears its key (a plan that ended). */
  keeps?(event: AgentEvent): boolean;
  entries: Map<string, Serialised>;
}

const ALERT_KINDS: ReadonlySet<EventKind> = new Set(['loop', 'intervention', 'error', 'warning', 'rejected']);

function keptKinds(): Map<EventKind, Kept> {
  const kept = new Map<EventKind, Kept>();
  const alerts: Kept = { cap: 30, key: (event) => String(event.seq), entries: new Map() };
  for (const kind of ALERT_KINDS) kept.set(kind, alerts);
  kept.set('plan', { cap: 200, key: (event) => (event as AgentEvent<'plan'>).goalId, keeps: (event) => (event as AgentEvent<'plan'>).status === 'Active', entries: new Map() });
  kept.set('question', { cap: 10, key: (event) => (event as AgentEvent<'question'>).questionId, entries: new Map() });
  kept.set('reflection', { cap: 1, key: () => '', entries: new Map() });
  return kept;
}

export class ReplayHistory {
  private readonly recent: Serialised[] = [];
  private readonly kept = keptKinds();
  /** Per goal, the `created` event of its active plan (sent with the plan's latest event, which {@link kept} holds). */
  private readonly planStarts = new Map<string, { planId: string; item: Serialised }>();

  /** `replay`: the events sent whatever their kind (0: nothing is replayed, not even the kept ones). */
  constructor(private readonly replay: number) {}

  add(event: AgentEvent, item: Serialised): void {
    if (this.replay === 0) return;
    this.recent.push(item);
    if (this.recent.length > this.replay) this.recent.shift();
    if (event.kind === 'plan') this.notePlanStart(event, item);
    const kept = this.kept.get(event.kind);
    if (!kept) return;
    const key = kept.key(event);
    // Deleted first, so the key counts as the most recently set.
    kept.entries.delete(key);
    if (kept.keeps && !kept.keeps(event)) return;
    kept.entries.set(key, item);
    if (kept.entries.size > kept.cap) kept.entries.delete(kept.entries.keys().next().value!);
  }

  /** Keeps a plan's `created` event while the plan is its goal's active one. */
  private notePlanStart(event: AgentEvent<'plan'>, item: Serialised): void {
    const start = this.planStarts.get(event.goalId);
    if (event.status === 'Active' && event.change === 'created') this.planStarts.set(event.goalId, { planId: event.planId, item });
    else if (event.status !== 'Active' || start?.planId !== event.planId) this.planStarts.delete(event.goalId);
  }

  /** The texts of the events a client is sent as it connects, of the kinds it `wants`, in `seq` order. */
  forClient(wants: (kind: EventKind) => boolean): string[] {
    const windowStart = this.recent[0]?.seq ?? Infinity;
    const older = new Set<Serialised>();
    for (const kept of this.kept.values()) for (const item of kept.entries.values()) if (item.seq < windowStart) older.add(item);
    const latestPlans = this.kept.get('plan')!.entries;
    for (const [goalId, { item }] of this.planStarts) if (item.seq < windowStart && latestPlans.has(goalId)) older.add(item);
    return [...[...older].sort((a, b) => a.seq - b.seq), ...this.recent].filter((item) => wants(item.kind)).map((item) => item.text);
  }
}
