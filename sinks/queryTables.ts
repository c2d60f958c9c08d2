/**
 * The store's query tables (`goals`, `episodes`, `triples`): a session's rows
 * there mirror its latest saved mind state, so a user can query them with the
 * `sqlite3` shell. Each save brings them up to date, in the same transaction
 * as the snapshot. A table whose rows would be the same as the last save's is
 * left alone (an idle agent with 40 000 triples would otherwise delete and
 * re-insert them all at every auto-save); `goals` then only gets the new
 * snapshot's id. The statements are keyed, so that the saves queued behind a
 * write in flight (a `save` sent over and over) run only the last refresh of
 * each table.
 */
import { createHash } from 'node:crypto';
import type { SqlStatement } from './storeRows.js';

/** The parts of a mind state the query tables show. */
export interface QueryableState {
  goals: { id: string; description: string; criteria: string; priority: number; status: string; parentId?: string }[];
  episodes: { id: string; at: number; goalId: string; summary: string; learnings: string[]; tools: string[] }[];
  graph: { triples: { subject: string; predicate: string; object: string; confidence: number }[] };
}

/**
 * Each table's columns, the same read out of a JSON row (`value`), the rows a
 * state gives it, and whether its rows carry the snapshot's id (bound after the
 * session).
 */
const TABLES = {
  goals: {
    stamped: true,
    columns: 'session, id, description, criteria, priority, status, parent_id, snapshot_id',
    select: `value->>'id', value->>'description', value->>'criteria', value->>'priority', value->>'status', value->>'parentId', ?`,
    rows: (state: QueryableState) => state.goals.map(({ id, description, criteria, priority, status, parentId }) => ({ id, description, criteria, priority, status, parentId })),
  },
  episodes: {
    stamped: false,
    columns: 'session, id, at, goal_id, summary, learnings, tools',
    select: `value->>'id', value->>'at', value->>'goalId', value->>'summary', value->'learnings', value->'tools'`,
    rows: (state: QueryableState) => state.episodes,
  },
  triples: {
    stamped: false,
    columns: 'session, subject, predicate, object, confidence',
    select: `value->>'subject', value->>'predicate', value->>'object', value->>'confidence'`,
    rows: (state: QueryableState) => state.graph.triples,
  },
} as const;

/** One session's query tables, as this writer last refreshed them. */
export class QueryTables {
  /** A digest of each table's rows as last written. */
  private readonly written = new Map<keyof typeof TABLES, string>();

  constructor(private readonly session: string) {}

  /** Statements that make the session's rows those of a saved state (snapshot `snapshotId`), for the tables whose rows changed since the last call. */
  refresh(snapshotId: number, state: QueryableState): SqlStatement[] {
    const statements: SqlStatement[] = [];
    for (const table of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
      const { stamped, columns, select, rows } = TABLES[table];
      const json = JSON.stringify(rows(state));
      const digest = createHash('sha256').update(json).digest('base64');
      // Keyed: of the refreshes queued in one write, the last settles each table (see SqlStatement.key).
      const key = `${table} of ${this.session}`;
      if (this.written.get(table) === digest) {
        if (stamped) statements.push({ sql: `UPDATE ${table} SET snapshot_id = ? WHERE session = ?`, params: [snapshotId, this.session], key: `${key}: snapshot id` });
        continue;
      }
      this.written.set(table, digest);
      statements.push(
        { sql: `DELETE FROM ${table} WHERE session = ?`, params: [this.session], key: `${key}: delete` },
        { sql: `INSERT INTO ${table} (${columns}) SELECT ?, ${select} FROM json_each(?)`, params: [this.session, ...(stamped ? [snapshotId] : []), json], key: `${key}: insert` },
      );
    }
    return statements;
  }
}
