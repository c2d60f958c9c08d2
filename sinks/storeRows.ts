/**
 * What the store writes: a row of each table, keyed by column, and a
 * statement with its parameters. The write batch (sinks/writeBatch.ts), the
 * row checks (sinks/rowCheck.ts) and the sink (sinks/toSqlite.ts) all speak
 * in these.
 */

/** A row of each table as the store takes it: an object keyed by column; a JSON column (`config`, `body`, `state`) holds the value itself. */
export interface InsertRows {
  sessions: {
    id: string;
    started_at: number;
    status: 'running' | 'ended' | 'crashed';
    resumed_from: string | null;
    first_seq: number;
    start_cycle: number;
    config: unknown;
  };
  signals: { id: number; session: string; at: number; type: string; body: unknown };
  /** A tool's effect (streams/effects.ts): `value` is its JSON column, absent for none. */
  effects: { id: number; session: string; cycle: number; n: number; at: number; tool: string; name: string; outcome: string; value?: unknown };
  /** The event itself: `seq`, `session`, `cycle`, `at` and `kind` are its columns, the rest of it is its `body`. */
  events: { seq: number; session: string; cycle: number; at: number; kind: string };
  snapshots: { id: number; session: string; at: number; cycle: number; signal_id: number; reason: string; state: unknown };
  provenance: {
    seq: number;
    session: string;
    cycle: number;
    at: number;
    goal_id: string;
    tool: string;
    score: number | null;
    breakdown: string | null;
    status: string;
    progress: string;
  };
}

/** The tables rows are inserted into. */
export type InsertTable = keyof InsertRows;

/** The tables whose rows are inserted in JSON chunks: all but `snapshots`. */
export type ChunkTable = Exclude<InsertTable, 'snapshots'>;

/** A statement with its parameters. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
  /**
   * What the statement settles, when a later statement of the same key makes
   * it moot (a query table rewritten, a session's snapshots pruned): of the
   * statements queued in one batch with a key, only the last runs, in its
   * own place. A `save` sent many times while a write was in flight queued
   * its rewrites and prunes once each, a turn of the event loop apiece.
   */
  key?: string;
  /**
   * For a statement that deletes a session's snapshots but its first and its
   * `newest` (sinks/snapshotRetention.ts): since it runs after the rows, the
   * batch leaves out the session's snapshots it would delete, those that are
   * neither the batch's first of the session nor among its newest. A save
   * sent many times while the store could not be written (a full disk)
   * queued a whole mind each: the retry inserted them all before deleting
   * them, so freeing room for the three kept was not enough to write again.
   */
  keepsSnapshots?: { session: string; newest: number };
}
