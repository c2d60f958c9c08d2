/**
 * The SQLite store: one file (or `:memory:`) holding sessions, the signal log
 * (the replay log), every event, mind snapshots and query tables (goals,
 * episodes, triples, provenance). Uses the asynchronous `sqlite3` driver with
 * WAL and `synchronous=NORMAL` (or FULL). Every driver error is translated into
 * a {@link StoreError} that names the file and says what to do (read-only,
 * full, locked, not a database). What a file must be to be opened (its schema
 * version, its migrations) is storeVersion.ts's.
 *
 * Writes go through {@link SqliteStore.write}: one transaction per
 * {@link WriteBatch} (made by {@link SqliteStore.batch}). Rows arrive as JSON
 * arrays of up to `batchSize` rows, each bound as one parameter and inserted
 * by an `INSERT … SELECT … FROM jsonb_each(?)` statement (`INSERT_SQL` in
 * storeSchema.ts): the driver binds every parameter on the JavaScript thread,
 * so one parameter per statement instead of one per column moves that work
 * into SQLite, which runs on the driver's worker thread.
 */
import { existsSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import { pagedRead } from './pagedRead.js';
import { readOnlyRoute, unwritableFileRoute } from './readOnlyRoute.js';
import { rowName } from './rowCheck.js';
import { RowIsolation, statementName } from './rowIsolation.js';
import { StoreError, translate } from './storeError.js';
import { checkStoreOptions, type StoreOptions } from './storeOptions.js';
import { freeBytes, storeFileProblem, unwritableStoreProblem } from './storeFile.js';
import { WriterLock } from './writerLock.js';
import { INSERT_ORDER, INSERT_SNAPSHOT_SQL, INSERT_SQL, SCHEMA_VERSION, type EventRow, type SessionRow, type SignalRow, type SnapshotRow } from './storeSchema.js';
import { migrate, requireSchema, requireWritableSchema, type SchemaConnection } from './storeVersion.js';
import type { ChunkTable } from './storeRows.js';
import { WriteBatch } from './writeBatch.js';

export type { StoreAccess, StoreOptions, Synchronous } from './storeOptions.js';

/** Rows a paged read ({@link SqliteStore.signalPages}, {@link SqliteStore.eventPages}) reads at a time. */
const PAGE_ROWS = 1000;

export interface EventQuery {
  session?: string;
  kind?: string;
  /** Only events with a greater seq (to read a long log page by page). */
  afterSeq?: number;
  limit?: number;
}

export class SqliteStore {
  private readonly statements = new Map<ChunkTable, Promise<sqlite3.Statement>>();
  private closed = false;
  readonly batchSize: number;
  private version = SCHEMA_VERSION;

  private constructor(
    readonly file: string,
    private readonly db: sqlite3.Database,
    options: StoreOptions,
    /** A writer's hold on the file (none for readers and `:memory:`). */
    private readonly lock?: WriterLock,
  ) {
    this.batchSize = options.batchSize ?? 500;
  }

  /**
   * Opens the store as `options.access` says (default: creating it if needed,
   * and migrating it). Fails with a {@link StoreError} when the file is
   * missing (unless created), is no regular file (see storeFile.ts), cannot be written, is locked, is not a database,
   * is another program's database (one with tables but no ooda-rx schema) or
   * was written by a newer version; nothing in the file is changed before
   * those checks pass. A writer (`create`, `existing`) holds
   * the file's {@link WriterLock} until {@link close}: one writer at a time.
   */
  static async open(file: string, options: StoreOptions = {}): Promise<SqliteStore> {
    checkStoreOptions(options);
    const access = options.access ?? 'create';
    if (access !== 'create' && file === ':memory:') {
      throw new StoreError("store: open: :memory: is a new, empty store each time, with no session: pass the store's file (--db FILE)", 'MISSING');
    }
    const problem = storeFileProblem(file);
    if (problem) throw new StoreError(`store: open: ${problem}: pass a regular file (--db FILE)`, 'NOT_A_FILE');
    if (access !== 'create' && !existsSync(file)) {
      throw new StoreError(`store: open: ${file} does not exist: 'ooda run --db ${file}' creates a store, or pass another --db`, 'MISSING');
    }
    if (access === 'read') return SqliteStore.openForReading(file, options);
    const unwritable = unwritableStoreProblem(file);
    if (unwritable) throw new StoreError(`store: open: ${unwritable}`, 'SQLITE_READONLY');
    if (file !== ':memory:' && existsSync(file)) await SqliteStore.refuseForeignSchema(file, access, options);
    const lock = file === ':memory:' ? undefined : await WriterLock.acquire(file, options.busyTimeoutMs ?? 2000, options.signal);
    let store: SqliteStore;
    try {
      store = await SqliteStore.connect(file, file, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, options, lock);
    } catch (error) {
      await lock?.release();
      throw error;
    }
    return store.prepare(async () => {
      // Checked before anything changes, the journal mode included.
      await requireWritableSchema(store.connection, access);
      await store.run('PRAGMA journal_mode = WAL');
      await store.run(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      await migrate(store.connection);
      await store.markCrashedSessions();
    });
  }

  /** Opens an existing store read-only; a file it may not write, or one the usual way cannot reach, is read as readOnlyRoute.ts says. */
  private static async openForReading(file: string, options: StoreOptions): Promise<SqliteStore> {
    const route = unwritableFileRoute(file);
    if (route) return SqliteStore.connectReader(file, options, route);
    try {
      return await SqliteStore.connectReader(file, options);
    } catch (error) {
      return SqliteStore.connectReader(file, options, readOnlyRoute(file, error));
    }
  }

  /** A read-only connection to the file (or to `via.uri`, set up by `via.pragma`), on a store of this program's schema or an older one. */
  private static async connectReader(file: string, options: StoreOptions, via?: { uri: string; pragma?: string }): Promise<SqliteStore> {
    const store = await (via ? SqliteStore.connect(file, via.uri, sqlite3.OPEN_READONLY | sqlite3.OPEN_URI, options) : SqliteStore.connect(file, file, sqlite3.OPEN_READONLY, options));
    return store.prepare(async () => {
      if (via?.pragma) await store.run(via.pragma);
      store.version = await requireSchema(store.connection, () => WriterLock.held(file));
    });
  }

  /**
   * Refuses a file a writer may not take (another program's database, or an
   * empty file where a store must exist) before the lock's side file is made
   * beside it; the check is made again under the lock. A file that cannot be
   * read here is left to the writer's own open to report.
   */
  private static async refuseForeignSchema(file: string, access: 'create' | 'existing', options: StoreOptions): Promise<void> {
    const peek = await SqliteStore.connect(file, file, sqlite3.OPEN_READONLY, options).catch(() => undefined);
    if (!peek) return;
    await peek.prepare(() => requireWritableSchema(peek.connection, access));
    await peek.close();
  }

  /** Opens the connection; `file` names the store in messages, `target` is what SQLite opens. */
  private static async connect(file: string, target: string, mode: number, options: StoreOptions, lock?: WriterLock): Promise<SqliteStore> {
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const handle: sqlite3.Database = new sqlite3.Database(target, mode, (error) => (error ? reject(translate(error, file, 'open')) : resolve(handle)));
    });
    db.configure('busyTimeout', options.busyTimeoutMs ?? 2000);
    return new SqliteStore(file, db, options, lock);
  }

  /** Runs the set-up steps of a new connection, closing it if they fail. */
  private async prepare(steps: () => Promise<void>): Promise<SqliteStore> {
    try {
      await steps();
    } catch (error) {
      await this.close().catch(() => undefined);
      throw error;
    }
    return this;
  }

  /**
   * For a writer, which holds the lock, so no other writer is alive: every
   * session still `running` died without stopping (e.g. `kill -9`) and is
   * marked `crashed`, its `cycles` and `ended_at` taken from its last stored
   * event (its start when it stored none).
   */
  private async markCrashedSessions(): Promise<void> {
    const last = (column: string): string => `(SELECT ${column} FROM events WHERE events.session = sessions.id ORDER BY seq DESC LIMIT 1)`;
    await this.run(
      `UPDATE sessions SET status = 'crashed', reason = 'did not stop cleanly', cycles = coalesce(${last('cycle')}, start_cycle), ended_at = coalesce(${last('at')}, started_at) WHERE status = 'running'`,
    );
  }

  /** The bytes still free on the file system holding the file (undefined for `:memory:` or when that cannot be told): whether a full disk got room again. */
  freeBytes(): number | undefined {
    return freeBytes(this.file);
  }

  /** A new, empty batch for {@link write}, inserting up to `batchSize` rows per statement. */
  batch(): WriteBatch {
    return new WriteBatch(this.batchSize);
  }

  /**
   * Writes the batch in one transaction: each table's rows (in {@link INSERT_ORDER}, then the snapshots), the exact fractional
   * times, then its statements in order. A row or statement SQLite refuses for what it is (a key already stored, an SQL
   * error) is left out and the rest written (sinks/rowIsolation.ts): resolves with an error for each left out, naming it.
   * Any other failure (busy, full, read-only, I/O, or a refused write that undid the whole transaction) rolls the whole
   * transaction back and rejects.
   */
  async write(batch: WriteBatch): Promise<StoreError[]> {
    // Chosen before anything is written: those left out are let go even when the write fails before it reaches them.
    const snapshots = batch.snapshotRows();
    const isolation = new RowIsolation(this.file, (sql) => this.run(sql));
    await this.run('BEGIN IMMEDIATE');
    try {
      await isolation.begin();
      for (const table of INSERT_ORDER) {
        for (const chunk of batch.chunks(table)) await isolation.insert(table, chunk, (rows) => this.insertRows(table, rows));
      }
      for (const values of snapshots) await isolation.write(() => this.run(INSERT_SNAPSHOT_SQL, values), rowName('snapshots', 'id', values[0]), false);
      for (const { sql, params } of batch.exactTimes(isolation.refused)) await this.run(sql, params);
      for (const { sql, params } of batch.statements) await isolation.write(() => this.run(sql, params), statementName(sql), true);
      await this.run('COMMIT');
    } catch (error) {
      await this.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return isolation.refused.map(({ error }) => error);
  }

  /** Runs a table's INSERT over a chunk of rows; a statement that failed (to prepare or to run) is prepared afresh next time. */
  private async insertRows(table: ChunkTable, chunk: Buffer): Promise<void> {
    const statement = await this.prepared(table);
    return new Promise((resolve, reject) => {
      statement.run([chunk], (error: Error | null) => {
        if (!error) return resolve();
        this.statements.delete(table);
        statement.finalize();
        reject(translate(error, this.file, `insert into ${table}`));
      });
    });
  }

  /** The table's INSERT, prepared once and cached. */
  private prepared(table: ChunkTable): Promise<sqlite3.Statement> {
    let statement = this.statements.get(table);
    if (!statement) {
      statement = new Promise((resolve, reject) => {
        // With a callback, a failed prepare rejects here (without one the driver would emit an unhandled 'error' and drop the queued run).
        const handle: sqlite3.Statement = this.db.prepare(INSERT_SQL[table], (error: Error | null) => {
          if (!error) return resolve(handle);
          this.statements.delete(table);
          reject(translate(error, this.file, `insert into ${table}`));
        });
      });
      this.statements.set(table, statement);
    }
    return statement;
  }

  /** The newest session that has a snapshot (the one `resume` continues), or undefined. */
  latestSession(): Promise<SessionRow | undefined> {
    return this.get<SessionRow>(
      'SELECT * FROM sessions WHERE EXISTS (SELECT 1 FROM snapshots WHERE snapshots.session = sessions.id) ORDER BY rowid DESC LIMIT 1',
    );
  }

  session(id: string): Promise<SessionRow | undefined> {
    return this.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]);
  }

  /** {@link session}, failing with a {@link StoreError} that names the session when the store has none of that id. */
  async existingSession(id: string): Promise<SessionRow> {
    const session = await this.session(id);
    if (!session) throw new StoreError(`store: no session ${JSON.stringify(id)} in ${this.file} (see 'ooda sessions')`, 'NO_SESSION');
    return session;
  }

  /**
   * Every session, oldest first, with its event, signal and snapshot counts
   * and the cycle of its last event. A session's events (and signals) are
   * numbered without gaps: one writer at a time stamps them in order from the
   * store's next free number and never drops one (a failed write is retried),
   * a crash loses only the newest, and pruning deletes whole sessions. So each
   * count is its last number minus its first plus one, read from the
   * `(session, seq)` and `(session, id)` indexes: counting rows read every
   * index entry of the store, seconds on one of millions of events.
   */
  sessions(): Promise<(SessionRow & { events: number; signals: number; snapshots: number; last_cycle: number | null })[]> {
    const span = (table: string, id: string): string =>
      `coalesce((SELECT max(${id}) FROM ${table} WHERE session = s.id) - (SELECT min(${id}) FROM ${table} WHERE session = s.id) + 1, 0)`;
    return this.all(`
      SELECT s.*,
        ${span('events', 'seq')} AS events,
        ${span('signals', 'id')} AS signals,
        (SELECT count(*) FROM snapshots p WHERE p.session = s.id) AS snapshots,
        (SELECT cycle FROM events e WHERE e.session = s.id ORDER BY seq DESC LIMIT 1) AS last_cycle
      FROM sessions s ORDER BY s.rowid`);
  }

  /**
   * The session's first (the state it started from) or latest snapshot. A
   * snapshot whose state is not JSON (the file was damaged or edited) is a
   * {@link StoreError} naming the file, the session and the snapshot.
   */
  async snapshot(session: string, which: 'first' | 'latest'): Promise<SnapshotRow | undefined> {
    const row = await this.get<SnapshotRow & { json: number }>(
      `SELECT *, json_valid(state) AS json FROM snapshots WHERE session = ? ORDER BY id ${which === 'first' ? 'ASC' : 'DESC'} LIMIT 1`,
      [session],
    );
    if (!row) return undefined;
    const { json, ...snapshot } = row;
    if (!json) {
      throw new StoreError(
        `store: ${this.file}: snapshot ${snapshot.id} of session ${session} is not JSON: the file was damaged or edited; restore it from a backup, or start a new mind with --fresh`,
        'SNAPSHOT',
      );
    }
    return snapshot;
  }

  /** The file's schema version: this program's (a writer migrates it), or an older one a reader reads as it is. */
  get schemaVersion(): number {
    return this.version;
  }

  /** The session's signals after the given id, in the order they entered; at most `limit`. */
  signals(session: string, afterId = 0, limit = -1): Promise<SignalRow[]> {
    return this.all<SignalRow>('SELECT * FROM signals WHERE session = ? AND id > ? ORDER BY id LIMIT ?', [session, afterId, limit]);
  }

  /** {@link signals}, a page of `pageSize` rows at a time, so a long log is never held whole. */
  signalPages(session: string, afterId = 0, pageSize = PAGE_ROWS): AsyncGenerator<SignalRow[]> {
    return pagedRead((after, limit) => this.signals(session, after, limit), (row) => row.id, afterId, pageSize);
  }

  /** How many signals the session recorded after the given id. */
  async signalCount(session: string, afterId = 0): Promise<number> {
    return (await this.get<{ n: number }>('SELECT count(*) AS n FROM signals WHERE session = ? AND id > ?', [session, afterId]))!.n;
  }

  /** Events in seq order, filtered by session and kind, at most `limit`. */
  events(query: EventQuery = {}): Promise<EventRow[]> {
    const { where, params } = eventFilter(query);
    const limit = query.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(query.limit))}` : '';
    return this.all<EventRow>(`SELECT * FROM events${where} ORDER BY seq${limit}`, params);
  }

  /** {@link events} (without `limit`), a page of `pageSize` rows at a time, so a long log is never held whole. */
  eventPages(query: Omit<EventQuery, 'limit'> = {}, pageSize = PAGE_ROWS): AsyncGenerator<EventRow[]> {
    return pagedRead((afterSeq, limit) => this.events({ ...query, afterSeq, limit }), (row) => row.seq, query.afterSeq, pageSize);
  }

  /**
   * The seq of the `n`-th newest event (n ≥ 1) that the query's session and
   * kind select, or undefined when fewer do: reading from just before it gives
   * the newest `n` (`ooda events --last N`).
   */
  async nthNewestSeq(query: Pick<EventQuery, 'session' | 'kind'>, n: number): Promise<number | undefined> {
    const { where, params } = eventFilter(query);
    const row = await this.get<{ seq: number }>(`SELECT seq FROM events${where} ORDER BY seq DESC LIMIT 1 OFFSET ?`, [...params, n - 1]);
    return row?.seq;
  }

  /** The next free ids: event seq, signal, snapshot and effect id. */
  async nextIds(): Promise<{ seq: number; signal: number; snapshot: number; effect: number }> {
    const row = (await this.get<{ seq: number; signal: number; snapshot: number; effect: number }>(
      'SELECT (SELECT coalesce(max(seq), 0) FROM events) AS seq, (SELECT coalesce(max(id), 0) FROM signals) AS signal, ' +
        '(SELECT coalesce(max(id), 0) FROM snapshots) AS snapshot, (SELECT coalesce(max(id), 0) FROM effects) AS effect',
    ))!;
    return { seq: row.seq + 1, signal: row.signal + 1, snapshot: row.snapshot + 1, effect: row.effect + 1 };
  }

  /**
   * Runs `work` in one read transaction, so all its reads see the store as of
   * the first: rows a live writer commits meanwhile are not seen (a replay
   * reads signal and event pages of the same moment). Not on a store a sink
   * is writing through: its transactions cannot start meanwhile.
   */
  async readTransaction<T>(work: () => Promise<T>): Promise<T> {
    await this.run('BEGIN');
    try {
      return await work();
    } finally {
      await this.run('COMMIT');
    }
  }

  /** `PRAGMA integrity_check`: "ok" or the problems found. */
  async integrityCheck(): Promise<string> {
    const rows = await this.all<{ integrity_check: string }>('PRAGMA integrity_check');
    return rows.map((r) => r.integrity_check).join('; ');
  }

  /** Runs one statement (for writes outside {@link write}, e.g. marking a session). */
  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => {
      this.db.run(sql, params, (error: Error | null) => (error ? reject(translate(error, this.file, describe(sql))) : resolve()));
    });
  }

  get<T>(sql: string, params: unknown[] = []): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      this.db.get(sql, params, (error: Error | null, row: T | undefined) => (error ? reject(translate(error, this.file, describe(sql))) : resolve(row)));
    });
  }

  all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => {
      this.db.all(sql, params, (error: Error | null, rows: T[]) => (error ? reject(translate(error, this.file, describe(sql))) : resolve(rows)));
    });
  }

  /** What the schema checks and migrations need of this connection (see storeVersion.ts). */
  private get connection(): SchemaConnection {
    return {
      file: this.file,
      get: (sql) => this.get(sql),
      all: (sql) => this.all(sql),
      run: (sql) => this.run(sql),
      execScript: (sql) =>
        new Promise((resolve, reject) => {
          this.db.exec(sql, (error: Error | null) => (error ? reject(translate(error, this.file, 'migrate')) : resolve()));
        }),
    };
  }

  /** Closes the file (finalising cached statements); safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const prepared of this.statements.values()) {
      const statement = await prepared.catch(() => undefined);
      if (statement) await new Promise<void>((resolve) => statement.finalize(() => resolve()));
    }
    this.statements.clear();
    try {
      await new Promise<void>((resolve, reject) => this.db.close((error) => (error ? reject(translate(error, this.file, 'close')) : resolve())));
    } finally {
      await this.lock?.release();
    }
  }
}

/**
 * The WHERE clause (with its leading space, or empty) and parameters selecting
 * the events a query asks for. With both a session and a kind, the seq range
 * of the session's events (two lookups in the `(session, seq)` index) bounds
 * the walk of the `(kind)` index, which otherwise reads the kind's events of
 * every session before (or, newest first, after) it.
 */
function eventFilter(query: EventQuery): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.session !== undefined) where.push('session = ?'), params.push(query.session);
  if (query.kind !== undefined) where.push('kind = ?'), params.push(query.kind);
  if (query.session !== undefined && query.kind !== undefined) {
    where.push('seq BETWEEN (SELECT min(seq) FROM events WHERE session = ?) AND (SELECT max(seq) FROM events WHERE session = ?)');
    params.push(query.session, query.session);
  }
  if (query.afterSeq !== undefined) where.push('seq > ?'), params.push(query.afterSeq);
  return { where: where.length ? ` WHERE ${where.join(' AND ')}` : '', params };
}

function describe(sql: string): string {
  return sql.trim().split(/[\s=(]+/).slice(0, 3).join(' ');
}
