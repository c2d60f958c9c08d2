/**
 * Pruning a store's old sessions: every row of the sessions beyond the newest
 * `keep` (their events, signals, effects, snapshots and query-table rows) is deleted in
 * one transaction, so a store that many runs have grown (each keeps its
 * start and exit snapshots, a whole mind each) can be cut back. The session
 * `resume` would continue (the newest with a snapshot) is always kept.
 * What is deleted cannot be replayed or resumed any more; the file keeps its
 * size until `VACUUM` (`vacuum: true`) compacts it.
 */
import type { SqliteStore } from './sqliteStore.js';
import { SCHEMA_VERSION } from './storeSchema.js';
import { tablesOf } from './storeVersion.js';

/** The tables whose rows belong to one session, by their `session` column: every table of the schema but `sessions`, so one a migration adds is pruned too. */
const SESSION_TABLES = tablesOf(SCHEMA_VERSION).filter((table) => table !== 'sessions');

/** A session pruning deletes (or, in a dry run, would delete). */
export interface PrunedSession {
  id: string;
  status: string;
  events: number;
  signals: number;
  snapshots: number;
}

export interface PruneOptions {
  /** How many of the newest sessions to keep (at least 1). */
  keep: number;
  /** List what would be deleted and change nothing. Default false. */
  dryRun?: boolean;
  /** After deleting, run `VACUUM` so that the file shrinks. Default false. */
  vacuum?: boolean;
}

/** Deletes the sessions beyond the newest `keep` (never the one `resume` continues); resolves with those deleted, oldest first. */
export async function pruneSessions(store: SqliteStore, { keep, dryRun = false, vacuum = false }: PruneOptions): Promise<PrunedSession[]> {
  if (!Number.isInteger(keep) || keep < 1) throw new RangeError(`pruneSessions keep: expected a whole number of sessions ≥ 1, got ${String(keep)}`);
  const resumable = (await store.latestSession())?.id;
  const sessions = await store.sessions();
  const pruned = sessions
    .slice(0, Math.max(0, sessions.length - keep))
    .filter((session) => session.id !== resumable)
    .map(({ id, status, events, signals, snapshots }) => ({ id, status, events, signals, snapshots }));
  if (dryRun) return pruned;
  if (pruned.length > 0) {
    await store.run('BEGIN IMMEDIATE');
    try {
      for (const { id } of pruned) {
        for (const table of SESSION_TABLES) await store.run(`DELETE FROM ${table} WHERE session = ?`, [id]);
        await store.run('DELETE FROM sessions WHERE id = ?', [id]);
      }
      await store.run('COMMIT');
    } catch (error) {
      await store.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
  if (vacuum) await store.run('VACUUM');
  return pruned;
}
