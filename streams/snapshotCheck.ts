/**
 * Comparing the mind a replay reaches with the snapshots its run saved: each
 * snapshot after the one the replay starts from (a `save` command's, an
 * auto-save's, the exit one) was taken as a pass began, before it changed
 * the mind, or at the end; the replay takes the mind at that same point and
 * compares the two (between pages of signals, and at the end). A recording altered where no event
 * shows it (a recorded effect whose value only the mind keeps, say) is then
 * not reported identical.
 *
 *   signals entering:  --a--b--[save]--c--|
 *   snapshots:               ^3          ^4 (exit)
 *   taken (replay):          mind        mind     → compared with 3 and 4
 */
import { MindState, type Mind } from '../mind/mind.js';
import type { SnapshotRow } from '../sinks/storeSchema.js';
import type { SqliteStore } from '../sinks/sqliteStore.js';
import { storedMindState } from './storedState.js';

/** Where the mind a replay reached first differs from a snapshot of its run. */
export interface StateDivergence {
  /** The snapshot, why it was taken (`save command`, `auto-save`, `exit`) and the cycle it was taken at. */
  snapshot: { id: number; reason: string; cycle: number };
  /** The first field that differs, as a path into the mind state (`.graph.triples.3.object`). */
  path: string;
  /** The snapshot's value there (JSON), or `(none)`. */
  expected: string;
  /** The replay's value there (JSON), or `(none)`. */
  got: string;
}

/** What a side of a {@link StateDivergence} has where the other has a field. */
export const NO_VALUE = '(none)';

/** A snapshot to compare, and how many signals entered before it was taken. */
interface SnapshotPoint {
  id: number;
  signalsBefore: number;
}

export class SnapshotCheck {
  private entered = 0;
  /** The first point not taken yet (points come in id order, and so in the order they are reached). */
  private next = 0;
  /** The replayed mind (as JSON) at each snapshot's point, by snapshot id, until it is compared. */
  private readonly taken = new Map<number, string>();
  private found: StateDivergence | undefined;

  private constructor(
    private readonly store: SqliteStore,
    private readonly points: readonly SnapshotPoint[],
  ) {}

  /** The snapshots of `session` after `baseId` (the one its replay starts from), with where each was taken. */
  static async of(store: SqliteStore, session: string, baseId: number): Promise<SnapshotCheck> {
    const points = await store.all<SnapshotPoint>(
      `SELECT p.id, (SELECT count(*) FROM signals s WHERE s.session = p.session AND s.id <= p.signal_id) AS signalsBefore
       FROM snapshots p WHERE p.session = ? AND p.id > ? ORDER BY p.id`,
      [session, baseId],
    );
    return new SnapshotCheck(store, points);
  }

  /** Called as each replayed signal enters its pass, before the pass changes the mind. */
  entering(mind: Mind): void {
    this.take(mind, this.entered);
    this.entered++;
  }

  /** Called once the replay has ended: a snapshot taken after the last signal entered (the exit one) takes the final mind. */
  ended(mind: Mind): void {
    this.take(mind, this.entered);
  }

  /** Compares the minds taken so far with their snapshots, and lets them go (a replay calls it between pages, so memory holds the minds of one page at most). */
  async settle(): Promise<void> {
    for (const [id, replayed] of [...this.taken].sort(([a], [b]) => a - b)) {
      this.taken.delete(id);
      if (this.found) continue;
      const row = await this.store.get<SnapshotRow>('SELECT * FROM snapshots WHERE id = ?', [id]);
      // Both sides read as a snapshot is restored, so what the format leaves out or fills in counts on neither.
      const expected = roundTrip(storedMindState(this.store.file, row!));
      const got = roundTrip(MindState.parse(JSON.parse(replayed)));
      const difference = firstDifference(expected, got, '');
      if (difference) this.found = { snapshot: { id, reason: row!.reason, cycle: row!.cycle }, ...difference };
    }
  }

  /** The first snapshot the replayed mind differs from, where; snapshots the replay did not reach (it diverged, or the recording was cut) are not compared. */
  async result(): Promise<StateDivergence | undefined> {
    await this.settle();
    return this.found;
  }

  private take(mind: Mind, signalsBefore: number): void {
    for (; this.next < this.points.length && this.points[this.next]!.signalsBefore <= signalsBefore; this.next++) {
      const point = this.points[this.next]!;
      if (point.signalsBefore === signalsBefore) this.taken.set(point.id, JSON.stringify(mind.toJSON()));
    }
  }
}

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** The first path (depth first, in the expected side's key order) where two JSON values differ, with both values there. */
export function firstDifference(expected: unknown, got: unknown, path: string): { path: string; expected: string; got: string } | undefined {
  if (Object.is(expected, got)) return undefined;
  const bothObjects = typeof expected === 'object' && expected !== null && typeof got === 'object' && got !== null && Array.isArray(expected) === Array.isArray(got);
  if (!bothObjects) return { path: path || '.', expected: JSON.stringify(expected), got: JSON.stringify(got) };
  const a = expected as Record<string, unknown>;
  const b = got as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const at = `${path}.${key}`;
    if (!Object.hasOwn(a, key)) return { path: at, expected: NO_VALUE, got: JSON.stringify(b[key]) };
    if (!Object.hasOwn(b, key)) return { path: at, expected: JSON.stringify(a[key]), got: NO_VALUE };
    const difference = firstDifference(a[key], b[key], at);
    if (difference) return difference;
  }
  return undefined;
}
