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
 */
import { showValue } from '../mind/describeValue.js';
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

/**
 * Runs one write (a snapshot's insert, a statement, named by `what`); when
 * SQLite refuses it for good, adds it to `refused` instead of failing.
 */
export async function runIsolating(write: () => Promise<void>, what: string, statement: boolean, file: string, refused: Refusal[]): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!refusedForGood(error as StoreError, statement)) throw error;
    refused.push({ error: leftOut(error as StoreError, file, what) });
  }
}

/** The statement as messages name it, cut short. */
export function statementName(sql: string): string {
  return `the statement ${showValue(sql)}`;
}

/**
 * Inserts a chunk (a JSON array of rows) with `insert`. When SQLite refuses
 * it for good, its rows are inserted in halves, each half that fails split
 * again, so that every row is written but those it refuses alone, which are
 * added to `refused`. Any other failure is thrown.
 */
export async function insertIsolating(table: ChunkTable, chunk: Buffer, insert: (chunk: Buffer) => Promise<void>, file: string, refused: Refusal[]): Promise<void> {
  try {
    return await insert(chunk);
  } catch (error) {
    if (!refusedForGood(error as StoreError, false)) throw error;
    await split(table, arrayItems(chunk.toString('utf8')), error as StoreError, insert, file, refused);
  }
}

/** Inserts the halves of `rows`, which failed together with `error`; a single row that failed is refused. */
async function split(table: ChunkTable, rows: string[], error: StoreError, insert: (chunk: Buffer) => Promise<void>, file: string, refused: Refusal[]): Promise<void> {
  if (rows.length === 1) {
    const row = readBack(rows[0]!);
    refused.push({ error: leftOut(error, file, rowName(table, ROW_KEY[table], row?.[ROW_KEY[table]])), table, ...(row ? { row } : {}) });
    return;
  }
  const half = rows.length >> 1;
  for (const part of [rows.slice(0, half), rows.slice(half)]) {
    try {
      await insert(Buffer.from(`[${part.join(',')}]`, 'utf8'));
    } catch (partError) {
      if (!refusedForGood(partError as StoreError, false)) throw partError;
      await split(table, part, partError as StoreError, insert, file, refused);
    }
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
