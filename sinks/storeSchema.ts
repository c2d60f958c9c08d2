/**
 * The SQLite store's schema, versioned with `PRAGMA user_version`: migration
 * N (1-based) takes a file from version N − 1 to N. Migrations only ever move
 * forward; a file newer than this program is refused rather than guessed at.
 * docs/store.md documents every table for users of the `sqlite3` shell.
 *
 * Also here: each table's row as the store reads it back, and the INSERT
 * that writes a batch of rows into it.
 */
import type { ChunkTable } from './storeRows.js';

/** Each entry is one migration's SQL, applied in a transaction. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    started_at   REAL NOT NULL,
    ended_at     REAL,
    status       TEXT NOT NULL CHECK (status IN ('running', 'ended', 'crashed')),
    reason       TEXT,
    resumed_from TEXT,
    first_seq    INTEGER NOT NULL,
    start_cycle  INTEGER NOT NULL,
    cycles       INTEGER,
    config       TEXT NOT NULL
  );
  CREATE TABLE signals (
    id      INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    at      REAL NOT NULL,
    type    TEXT NOT NULL,
    body    TEXT NOT NULL
  );
  CREATE INDEX signals_session ON signals (session, id);
  CREATE TABLE events (
    seq     INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    cycle   INTEGER NOT NULL,
    at      REAL NOT NULL,
    kind    TEXT NOT NULL,
    body    TEXT NOT NULL
  );
  CREATE INDEX events_session_seq ON events (session, seq);
  CREATE INDEX events_kind ON events (kind);
  CREATE TABLE snapshots (
    id        INTEGER PRIMARY KEY,
    session   TEXT NOT NULL,
    at        REAL NOT NULL,
    cycle     INTEGER NOT NULL,
    signal_id INTEGER NOT NULL,
    reason    TEXT NOT NULL,
    state     TEXT NOT NULL
  );
  CREATE INDEX snapshots_session ON snapshots (session, id);
  CREATE TABLE goals (
    session     TEXT NOT NULL,
    id          TEXT NOT NULL,
    description TEXT NOT NULL,
    criteria    TEXT NOT NULL,
    priority    INTEGER NOT NULL,
    status      TEXT NOT NULL,
    parent_id   TEXT,
    snapshot_id INTEGER NOT NULL,
    PRIMARY KEY (session, id)
  );
  CREATE TABLE episodes (
    session   TEXT NOT NULL,
    id        TEXT NOT NULL,
    at        REAL NOT NULL,
    goal_id   TEXT NOT NULL,
    summary   TEXT NOT NULL,
    learnings TEXT NOT NULL,
    tools     TEXT NOT NULL,
    PRIMARY KEY (session, id)
  );
  CREATE TABLE triples (
    session    TEXT NOT NULL,
    subject    TEXT NOT NULL,
    predicate  TEXT NOT NULL,
    object     TEXT NOT NULL,
    confidence REAL NOT NULL,
    PRIMARY KEY (session, subject, predicate, object)
  );
  CREATE TABLE provenance (
    seq       INTEGER PRIMARY KEY,
    session   TEXT NOT NULL,
    cycle     INTEGER NOT NULL,
    at        REAL NOT NULL,
    goal_id   TEXT NOT NULL,
    tool      TEXT NOT NULL,
    score     REAL,
    breakdown TEXT,
    status    TEXT NOT NULL,
    progress  TEXT NOT NULL
  );
  CREATE INDEX provenance_goal ON provenance (session, goal_id);
  `,
  `
  CREATE TABLE effects (
    id      INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    cycle   INTEGER NOT NULL,
    n       INTEGER NOT NULL,
    at      REAL NOT NULL,
    tool    TEXT NOT NULL,
    name    TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'abandoned')),
    value   TEXT
  );
  CREATE UNIQUE INDEX effects_key ON effects (session, cycle, n);
  `,
];

/** The schema version this program writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The rows of a chunk: its JSON array, bound as UTF-8 bytes. */
const CHUNK_ROWS = 'jsonb_each(CAST(? AS TEXT))';

/** An INSERT reading rows (JSON objects keyed by column, see {@link InsertRows}) out of a chunk; JSON columns keep their JSON text. */
function insertFromJson(table: ChunkTable, columns: readonly string[], jsonColumns: readonly string[]): string {
  const values = [...columns.map((c) => `value->>'${c}'`), ...jsonColumns.map((c) => `value->'${c}'`)];
  return `INSERT INTO ${table} (${[...columns, ...jsonColumns].join(', ')}) SELECT ${values.join(', ')} FROM ${CHUNK_ROWS}`;
}

/** Each table's INSERT of a chunk of rows. An event's body is the event without its header columns, in its own key order. */
export const INSERT_SQL: Record<ChunkTable, string> = {
  sessions: insertFromJson('sessions', ['id', 'started_at', 'status', 'resumed_from', 'first_seq', 'start_cycle'], ['config']),
  signals: insertFromJson('signals', ['id', 'session', 'at', 'type'], ['body']),
  events:
    "INSERT INTO events (seq, session, cycle, at, kind, body) SELECT value->>'seq', value->>'session', value->>'cycle', value->>'at', value->>'kind', " +
    `json_remove(value, '$.seq', '$.session', '$.cycle', '$.at', '$.kind') FROM ${CHUNK_ROWS}`,
  effects: insertFromJson('effects', ['id', 'session', 'cycle', 'n', 'at', 'tool', 'name', 'outcome'], ['value']),
  provenance: insertFromJson('provenance', ['seq', 'session', 'cycle', 'at', 'goal_id', 'tool', 'score', 'breakdown', 'status', 'progress'], []),
};

/** The order in which a transaction inserts its chunks, so statements that follow can rely on them; its snapshots come after them all. */
export const INSERT_ORDER: ChunkTable[] = ['sessions', 'signals', 'effects', 'events', 'provenance'];

/**
 * The INSERT of one snapshot, its columns bound as they are ({@link WriteBatch.snapshotRows}): a snapshot is
 * the whole mind, and reading it out of a JSON chunk made SQLite hold several copies of it at once (parsed,
 * as `value`, as `value->'state'`): inserting one 66 MB mind grew the process by 800 MB.
 */
export const INSERT_SNAPSHOT_SQL = 'INSERT INTO snapshots (id, session, at, cycle, signal_id, reason, state) VALUES (?, ?, ?, ?, ?, ?, ?)';

export interface SessionRow {
  id: string;
  started_at: number;
  ended_at: number | null;
  status: 'running' | 'ended' | 'crashed';
  reason: string | null;
  resumed_from: string | null;
  first_seq: number;
  start_cycle: number;
  cycles: number | null;
  config: string;
}

export interface SnapshotRow {
  id: number;
  session: string;
  at: number;
  cycle: number;
  signal_id: number;
  reason: string;
  state: string;
}

export interface SignalRow {
  id: number;
  session: string;
  at: number;
  type: string;
  body: string;
}

export interface EffectRow {
  id: number;
  session: string;
  cycle: number;
  n: number;
  at: number;
  tool: string;
  name: string;
  outcome: string;
  value: string | null;
}

export interface EventRow {
  seq: number;
  session: string;
  cycle: number;
  at: number;
  kind: string;
  body: string;
}
