/**
 * The SQLite store's schema, versioned with `PRAGMA user_version`: migration
 * N (1-based) takes a file from version N − 1 to N. Migrations only ever move
 * forward; a file newer than this program is refused rather than guessed at.
 * docs/store.md documents every table for users of the `sqlite3` shell.
 */

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
];

/** The schema version this program writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
