/**
 * WriteBatch: one transaction's worth of writes for {@link SqliteStore.write}:
 * rows per table, and statements run after the rows, in the order they were
 * added.
 *
 * A row is an object keyed by column ({@link InsertRows}). It is serialised
 * to JSON once, as it is added, straight into a UTF-8 buffer holding a JSON
 * array of up to `rowsPerChunk` rows: the store binds each such chunk as one
 * parameter and reads the columns out of it in SQLite (`jsonb_each`), so
 * nothing is bound per column or converted again per batch on the JavaScript
 * thread. A snapshot, a single row of the whole mind, is the exception: its
 * columns are bound as they are, its state as its JSON text.
 */
import { checkNumbers, ROW_KEY, rowJson } from './rowCheck.js';
import type { Refusal } from './rowIsolation.js';
import type { ChunkTable, InsertRows, InsertTable, SqlStatement } from './storeRows.js';

/**
 * Each table's time column. SQLite's decimal-to-double conversion is
 * not always correctly rounded (about 1 in 10 000 arbitrary doubles comes back
 * 1 ulp off), so the times that are not safe integers (a fractional clock) are
 * set again after the rows with their exact values bound, by one statement per
 * table and batch ({@link WriteBatch.exactTimes}). Integer times, the common
 * case, are exact. Other REAL values (scores) are read from the JSON as SQLite
 * reads `body->>'score'`; the hundredths the scorer produces convert exactly.
 */
const TIME_COLUMN: { readonly [T in ChunkTable]: string } = {
  sessions: 'started_at',
  signals: 'at',
  effects: 'at',
  events: 'at',
  provenance: 'at',
};

/** The `[key, time]` pairs but one for each refused row of the table (the one with its key and time). */
function withoutRefused(times: readonly unknown[][], refused: readonly Refusal[], table: ChunkTable): unknown[][] {
  const kept = [...times];
  for (const { table: its, row } of refused) {
    if (its !== table || !row) continue;
    const at = kept.findIndex(([key, time]) => key === row[ROW_KEY[table]] && Object.is(time, row[TIME_COLUMN[table]]));
    if (at >= 0) kept.splice(at, 1);
  }
  return kept;
}

/** Rows whose time one fix-up statement sets: two parameters each, within SQLite's 32 766. */
const TIMES_PER_STATEMENT = 16_000;

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]
/** Bytes the first chunk of a table starts with; it doubles as rows arrive, and the next chunk starts a little larger than the last one ended. */
const FIRST_CAPACITY = 65_536;
/**
 * Bytes a chunk of several rows stays within: it is sealed once it holds
 * them, or before a row that would take it past (a longer row is a chunk of
 * its own), however few rows it holds. SQLite holds a
 * chunk several times over while it inserts it (bound, parsed, each row's
 * value), so chunks of big rows (goals of 900 KB, and the events that carry
 * them) took tens of MB each; rows of the usual few hundred bytes fill
 * `rowsPerChunk` long before.
 */
const CHUNK_BYTES = 1024 * 1024;
/** Rows longer than this (UTF-16 units) have their UTF-8 length counted before they are copied into a chunk. */
const LONG_ROW = 4096;

/** One table's rows: sealed chunks (complete JSON arrays) and the chunk being filled. */
class TableRows {
  readonly sealed: Buffer[] = [];
  private buffer: Buffer | undefined;
  private used = 0;
  private rows = 0;
  private capacity = FIRST_CAPACITY;

  constructor(private readonly rowsPerChunk: number) {}

  add(json: string): void {
    // Its UTF-8 bytes, plus the separator before it and the bracket after it: counted for a long row (a sealed chunk keeps its whole buffer
    // until it is written, and 900 KB rows reserved three times that), bounded for a short one (at most 3 bytes per UTF-16 unit; counting costs a pass).
    const room = (json.length > LONG_ROW ? Buffer.byteLength(json) : json.length * 3) + 2;
    // A row that would take a chunk of rows past CHUNK_BYTES starts the next one.
    if (this.rows > 0 && this.used + room > CHUNK_BYTES) this.seal();
    const buffer = this.buffer && this.buffer.length - this.used >= room ? this.buffer : this.grow(room);
    buffer[this.used++] = this.rows === 0 ? OPEN : COMMA;
    this.used += buffer.write(json, this.used);
    if (++this.rows === this.rowsPerChunk || this.used >= CHUNK_BYTES) this.seal();
  }

  /** Closes the chunk being filled, if any. */
  seal(): void {
    if (!this.buffer || this.rows === 0) return;
    this.buffer[this.used++] = CLOSE;
    this.sealed.push(this.buffer.subarray(0, this.used));
    this.capacity = this.used + (this.used >> 3);
    this.buffer = undefined;
    this.used = 0;
    this.rows = 0;
  }

  append(later: TableRows): void {
    this.seal();
    later.seal();
    for (const chunk of later.sealed) this.sealed.push(chunk);
  }

  private grow(room: number): Buffer {
    const buffer = Buffer.allocUnsafe(Math.max(Math.min(this.buffer ? 2 * this.buffer.length : this.capacity, CHUNK_BYTES), this.used + room));
    this.buffer?.copy(buffer, 0, 0, this.used);
    return (this.buffer = buffer);
  }
}

export class WriteBatch {
  private readonly tables: { readonly [T in ChunkTable]: TableRows };
  /** The snapshot rows as they are bound (see {@link snapshotRows}), held until the batch is written, when those its statements would delete are left out (see {@link SqlStatement.keepsSnapshots}). */
  private snapshots: { session: string; values: unknown[]; chars: number }[] = [];
  /** Per table, the key and exact time of each row whose time is not a safe integer (see TIME_COLUMN). */
  private readonly fractionalTimes = new Map<ChunkTable, unknown[][]>();
  /** Statements run after every row, in order; a keyed one left out (undefined) once a later one of its key came. */
  private readonly queued: (SqlStatement | undefined)[] = [];
  /** Where the last statement of each key is in {@link queued}. */
  private readonly keyed = new Map<string, number>();
  /** Rows plus statements. */
  size = 0;
  /** The rows' JSON length in UTF-16 units (about their bytes): what the queue holds in memory, a whole-mind snapshot weighing as much as it is. */
  chars = 0;

  /** `rowsPerChunk`: rows per JSON array, i.e. per INSERT statement. */
  constructor(rowsPerChunk: number) {
    const rows = (): TableRows => new TableRows(rowsPerChunk);
    this.tables = { sessions: rows(), signals: rows(), effects: rows(), events: rows(), provenance: rows() };
  }

  /**
   * Adds a row, serialised now (or already, as `json`, but for a snapshot):
   * later changes to the object are not written. A row the store could never
   * write as it is (see sinks/rowCheck.ts) throws, naming it, and is not added.
   */
  insert<T extends InsertTable>(table: T, row: InsertRows[T], json?: string): void {
    const text = json ?? rowJson(table, row);
    checkNumbers(table, row);
    this.size++;
    if (table === 'snapshots') {
      const { id, session, at, cycle, signal_id, reason } = row as InsertRows['snapshots'];
      this.snapshots.push({ session, values: [id, session, at, cycle, signal_id, reason, text], chars: text.length });
      // Bound as it is, its time is exact.
      this.chars += text.length;
      return;
    }
    this.tables[table as ChunkTable].add(text);
    this.chars += text.length;
    const fields = row as unknown as Record<string, unknown>;
    const time = fields[TIME_COLUMN[table as ChunkTable]];
    if (Number.isSafeInteger(time)) return;
    let times = this.fractionalTimes.get(table);
    if (!times) this.fractionalTimes.set(table, (times = []));
    times.push([fields[ROW_KEY[table]], time]);
  }

  /**
   * The statements that set the rows' fractional times exactly, run after the
   * rows and before {@link statements}: one per table (per 16 000 rows), the
   * times bound as doubles, however many rows have one. The rows `refused`
   * (left out: sinks/rowIsolation.ts) are skipped, so that one refused for a
   * key already stored does not set that row's time.
   */
  exactTimes(refused: readonly Refusal[] = []): SqlStatement[] {
    const statements: SqlStatement[] = [];
    for (const [table, all] of this.fractionalTimes) {
      const key = ROW_KEY[table];
      const time = TIME_COLUMN[table];
      const times = refused.length === 0 ? all : withoutRefused(all, refused, table);
      for (let from = 0; from < times.length; from += TIMES_PER_STATEMENT) {
        const some = times.slice(from, from + TIMES_PER_STATEMENT);
        statements.push({
          sql: `UPDATE ${table} SET ${time} = exact.column2 FROM (VALUES ${some.map(() => '(?, ?)').join(', ')}) AS exact WHERE ${table}.${key} = exact.column1`,
          params: some.flat(),
        });
      }
    }
    return statements;
  }

  /** Adds a statement, run after the rows; one with a `key` replaces the batch's earlier one of that key (see {@link SqlStatement.key}), counting as it did. */
  run(statement: SqlStatement): void {
    const { key } = statement;
    const replaced = key === undefined ? undefined : this.keyed.get(key);
    if (replaced === undefined) this.size++;
    else this.queued[replaced] = undefined;
    if (key !== undefined) this.keyed.set(key, this.queued.length);
    this.queued.push(statement);
  }

  /** The statements to run after every row, in order. */
  get statements(): SqlStatement[] {
    return this.queued.filter((statement): statement is SqlStatement => statement !== undefined);
  }

  /** A table's rows as UTF-8 JSON arrays of up to `rowsPerChunk` rows each, in the order they were added. */
  chunks(table: ChunkTable): readonly Buffer[] {
    const rows = this.tables[table];
    rows.seal();
    return rows.sealed;
  }

  /**
   * The snapshot rows to insert, in order, each as the values of its columns
   * (`id, session, at, cycle, signal_id, reason, state`, the state as JSON
   * text): all but those a statement of the batch deletes after them (see
   * {@link SqlStatement.keepsSnapshots}).
   */
  snapshotRows(): readonly unknown[][] {
    // Chosen again at each attempt: a failed batch takes the later snapshots, which may make some of its own moot.
    const kept = new Set(this.keptSnapshots());
    // Those left out are let go, and no longer weigh on the queue's bound (a retried batch becomes the queue).
    for (const snapshot of this.snapshots) if (!kept.has(snapshot)) this.chars -= snapshot.chars;
    this.snapshots = [...kept];
    return this.snapshots.map(({ values }) => values);
  }

  /** The snapshot rows but those a statement of the batch deletes after them (see {@link SqlStatement.keepsSnapshots}), in order. */
  private keptSnapshots(): { session: string; values: unknown[]; chars: number }[] {
    const newest = new Map<string, number>();
    for (const { keepsSnapshots } of this.statements) if (keepsSnapshots) newest.set(keepsSnapshots.session, keepsSnapshots.newest);
    if (newest.size === 0) return this.snapshots;
    const count = new Map<string, number>();
    for (const { session } of this.snapshots) count.set(session, (count.get(session) ?? 0) + 1);
    const seen = new Map<string, number>();
    return this.snapshots.filter(({ session }) => {
      const index = seen.get(session) ?? 0;
      seen.set(session, index + 1);
      const kept = newest.get(session);
      return kept === undefined || index === 0 || index >= count.get(session)! - kept;
    });
  }

  /** Moves every write of a later batch behind this one's (a failed batch takes the writes queued after it). */
  append(later: WriteBatch): void {
    for (const table of Object.keys(this.tables) as (keyof typeof this.tables)[]) this.tables[table].append(later.tables[table]);
    // Appended one by one: a spread of a long list (a retried batch of 200 000 rows) would pass the arguments' limit.
    for (const snapshot of later.snapshots) this.snapshots.push(snapshot);
    for (const [table, times] of later.fractionalTimes) {
      const mine = this.fractionalTimes.get(table);
      if (!mine) this.fractionalTimes.set(table, times);
      else for (const time of times) mine.push(time);
    }
    // Kept whole, in order: only statements queued from now on replace the last of their key.
    for (const statement of later.statements) {
      if (statement.key !== undefined) this.keyed.set(statement.key, this.queued.length);
      this.queued.push(statement);
    }
    this.size += later.size;
    this.chars += later.chars;
  }
}
