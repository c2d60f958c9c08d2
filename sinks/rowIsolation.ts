/**
 * rowIsolation: a write SQLite refuses for what it writes, not for the state
 * of the store, is left out of its transaction instead of failing it. A row
 * whose key is stored already, that breaks a NOT NULL or CHECK constraint or
 * holds JSON SQLite cannot read, and a statement with an SQL error, fail
 * however often they are tried: retrying the whole batch (as is right for a
 * busy, full, read-only or failing disk) held every row queued with them
 * for ever, and wrote none. A failed statement undoes only itself, so the
 * transaction goes on: a chunk of rows that fails so is split in halves,
 * again and again, until only the bad rows are left out; each is reported
 * with its table, its key and SQLite's reason, and the rest of the batch is
 * written in the same transaction, in its order.
 *
 * But for a write SQLite refuses with the ROLLBACK conflict resolution (a
 * trigger's RAISE(ROLLBACK), a constraint declared ON CONFLICT ROLLBACK, an
 * INSERT OR ROLLBACK): that undoes the whole transaction. Taken for one that
 * undid itself, the writes after it ran outside any transaction, each
 * committed alone, then COMMIT failed and the batch was tried again: its
 * rows were never written and its later statements were committed once per
 * try. So a savepoint is set as the transaction begins ({@link begin}), and
 * after each refused write it is looked for (released and set again); when
 * it is gone, the batch fails whole, naming the write, with nothing of it
 * committed, and is retried as a store that cannot be written is.
 */
import { describeValue, showValue } from '../mind/describeValue.js';
import { arrayItems } from './jsonStructure.js';
import { ROW_KEY, rowName } from './rowCheck.js';
import { StoreError } from './storeError.js';
import type { ChunkTable } from './storeRows.js';

/** A write left out: the error to report, and for a row of a chunk, the row as it was read back. */
export interface Refusal {
  error: StoreError;
  table?: ChunkTable;
  row?: Record<string, unknown>;
}

/** The savepoint whose loss tells that a refused write ended the transaction. */
const MARK = 'ooda_batch';

/**
 * Whether SQLite refused the write for what it writes, so that writing it
 * again would fail again. An SQL error is the write's own only for a
 * statement given to the sink (`statement`) or JSON SQLite cannot read; in
 * the store's own inserts it means the store is not as it should be (a table
 * dropped), which a retry may find mended.
 */
function refusedForGood(error: StoreError, statement: boolean): boolean {
  switch (error.code) {
    case 'SQLITE_CONSTRAINT':
    case 'SQLITE_MISMATCH':
    case 'SQLITE_TOOBIG':
      return true;
    case 'SQLITE_ERROR':
    case 'SQLITE_RANGE':
      return statement || /JSON/.test(error.detail ?? '');
    default:
      return false;
  }
}

/** The error reported for a write left out. */
function leftOut(error: StoreError, file: string, what: string): StoreError {
  const reason = error.detail ?? error.message;
  return new StoreError(`store: write: ${file}: ${what} was left out, since SQLite refuses it (${reason}); the rest of its batch was written`, error.code, reason);
}

/** The error the batch fails with when a refused write ended its transaction. */
function endedTransaction(error: StoreError, file: string, what: string): StoreError {
  const reason = error.detail ?? error.message;
  return new StoreError(
    `store: write: ${file}: ${what} ended the transaction of its batch: SQLite refuses it (${reason}) with ROLLBACK (a trigger's RAISE(ROLLBACK), a constraint declared ON CONFLICT ROLLBACK), which undoes the whole transaction, so nothing of the batch was written; it is tried again whole until that trigger or constraint is dropped`,
    error.code,
    reason,
  );
}

/** The statement as messages name it, cut short. */
export function statementName(sql: string): string {
  return `the statement ${showValue(sql)}`;
}

/** Rows of a chunk as messages name them: `the signals row with id 3`, `the 4 signals rows with id 2 to 5`. */
function rowsName(table: ChunkTable, rows: readonly string[]): string {
  const key = ROW_KEY[table];
  if (rows.length === 1) return rowName(table, key, readBack(rows[0]!)?.[key]);
  return `the ${rows.length} ${table} rows with ${key} ${describeValue(readBack(rows[0]!)?.[key])} to ${describeValue(readBack(rows.at(-1)!)?.[key])}`;
}

/** The writes of one transaction, made so that those SQLite refuses for good are left out (see the module doc). */
export class RowIsolation {
  /** The writes left out so far. */
  readonly refused: Refusal[] = [];

  /** `run` runs SQL on the connection the transaction is on. */
  constructor(
    private readonly file: string,
    private readonly run: (sql: string) => Promise<void>,
  ) {}

  /** Sets the savepoint looked for after a refused write: call it first in the transaction. */
  begin(): Promise<void> {
    return this.run(`SAVEPOINT ${MARK}`);
  }

  /** Runs one write (a snapshot's insert, a statement, named by `what`); when SQLite refuses it for good, leaves it out instead of failing. */
  async write(write: () => Promise<void>, what: string, statement: boolean): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!refusedForGood(error as StoreError, statement)) throw error;
      await this.stillInTransaction(error as StoreError, what);
      this.refused.push({ error: leftOut(error as StoreError, this.file, what) });
    }
  }

  /**
   * Inserts a chunk (a JSON array of rows) with `insert`. When SQLite refuses
   * it for good, its rows are inserted in halves, each half that fails split
   * again, so that every row is written but those it refuses alone, which are
   * left out. Any other failure is thrown.
   */
  async insert(table: ChunkTable, chunk: Buffer, insert: (chunk: Buffer) => Promise<void>): Promise<void> {
    return this.insertRows(table, chunk, () => arrayItems(chunk.toString('utf8')), insert);
  }

  /** Inserts `chunk`, whose rows `rows` gives; when SQLite refuses it for good, a single row is left out and several are inserted in halves. */
  private async insertRows(table: ChunkTable, chunk: Buffer, rows: () => string[], insert: (chunk: Buffer) => Promise<void>): Promise<void> {
    try {
      await insert(chunk);
    } catch (error) {
      if (!refusedForGood(error as StoreError, false)) throw error;
      const items = rows();
      const what = rowsName(table, items);
      await this.stillInTransaction(error as StoreError, what);
      if (items.length === 1) {
        const row = readBack(items[0]!);
        this.refused.push({ error: leftOut(error as StoreError, this.file, what), table, ...(row ? { row } : {}) });
        return;
      }
      const half = items.length >> 1;
      for (const part of [items.slice(0, half), items.slice(half)]) await this.insertRows(table, Buffer.from(`[${part.join(',')}]`, 'utf8'), () => part, insert);
    }
  }

  /** After a write SQLite refused (`error`): throws, naming it (`what`), when it ended the transaction, i.e. the savepoint is gone; else sets the savepoint again. */
  private async stillInTransaction(error: StoreError, what: string): Promise<void> {
    try {
      await this.run(`RELEASE ${MARK}`);
    } catch (lost) {
      if (!/^no such savepoint/.test((lost as StoreError).detail ?? '')) throw lost;
      throw endedTransaction(error, this.file, what);
    }
    await this.run(`SAVEPOINT ${MARK}`);
  }
}

/** A refused row's object, for its key and time (undefined when it cannot be read: its key is then unknown). */
function readBack(text: string): Record<string, unknown> | undefined {
  try {
    const row: unknown = JSON.parse(text);
    return row !== null && typeof row === 'object' ? (row as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
