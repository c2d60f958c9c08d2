/**
 * The store's query tables (`goals`, `episodes`, `triples`): a session's rows
 * there mirror its latest saved mind state, so a user can query them with the
 * `sqlite3` shell. Each save replaces them, in the same transaction as the
 * snapshot.
 */
import type { SqlStatement } from './writeBatch.js';

/** The parts of a mind state the query tables show. */
export interface QueryableState {
  goals: { id: string; description: string; criteria: string; priority: number; status: string; parentId?: string }[];
  episodes: { id: string; at: number; goalId: string; summary: string; learnings: string[]; tools: string[] }[];
  graph: { triples: { subject: string; predicate: string; object: string; confidence: number }[] };
}

/** Statements that replace a session's rows in `goals`, `episodes` and `triples` with those of a saved state. */
export function queryTableOps(session: string, snapshotId: number, state: QueryableState): SqlStatement[] {
  const each = (table: string, columns: string, select: string, rows: unknown[]): SqlStatement[] => [
    { sql: `DELETE FROM ${table} WHERE session = ?`, params: [session] },
    { sql: `INSERT INTO ${table} (${columns}) SELECT ?, ${select} FROM json_each(?)`, params: [session, JSON.stringify(rows)] },
  ];
  return [
    ...each(
      'goals',
      'session, id, description, criteria, priority, status, parent_id, snapshot_id',
      `value->>'id', value->>'description', value->>'criteria', value->>'priority', value->>'status', value->>'parentId', ${snapshotId}`,
      state.goals,
    ),
    ...each(
      'episodes',
      'session, id, at, goal_id, summary, learnings, tools',
      `value->>'id', value->>'at', value->>'goalId', value->>'summary', value->'learnings', value->'tools'`,
      state.episodes,
    ),
    ...each(
      'triples',
      'session, subject, predicate, object, confidence',
      `value->>'subject', value->>'predicate', value->>'object', value->>'confidence'`,
      state.graph.triples,
    ),
  ];
}
