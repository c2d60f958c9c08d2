/**
 * Which of a session's snapshots the store keeps. Only two are ever read: the
 * first (`ooda replay` starts from it) and the latest (`resume`, with the
 * signals recorded after it). Every save writes the whole mind, so the store
 * would otherwise grow by one mind per `autoSaveMs` for as long as an agent
 * runs. Each save therefore deletes, in the transaction that writes it, the
 * session's snapshots other than its first and its newest
 * {@link NEWEST_SNAPSHOTS_KEPT}. A crash mid-save rolls back both, so resume
 * always finds a latest snapshot; the one before it stays as well, so a latest
 * snapshot that turns out unreadable (a damaged page) can be deleted by hand
 * and the session resumed from the previous one plus the signals recorded
 * after it (signals are never deleted).
 */
import type { SqlStatement } from './storeRows.js';

/** The newest snapshots of a session kept besides its first. */
export const NEWEST_SNAPSHOTS_KEPT = 2;

/** Deletes the session's snapshots but its first and its newest {@link NEWEST_SNAPSHOTS_KEPT}. */
export function pruneSnapshots(session: string): SqlStatement {
  return {
    sql: `DELETE FROM snapshots WHERE session = ?1
      AND id > (SELECT min(id) FROM snapshots WHERE session = ?1)
      AND id < (SELECT id FROM snapshots WHERE session = ?1 ORDER BY id DESC LIMIT 1 OFFSET ${NEWEST_SNAPSHOTS_KEPT - 1})`,
    params: [session],
    // The rows of a write go in before its statements: its last prune keeps what each of them would.
    key: `prune snapshots of ${session}`,
    // Nor are the snapshots it deletes inserted first, when a batch holds several of the session's.
    keepsSnapshots: { session, newest: NEWEST_SNAPSHOTS_KEPT },
  };
}
