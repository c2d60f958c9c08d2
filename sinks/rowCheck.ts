/**
 * rowCheck: what a row must be for the store to write it, checked as it is
 * queued, before it is counted, so that one bad row is refused at once,
 * naming its table, its key and the column, instead of failing the
 * transaction it lands in. Only what is cheap to see is checked here: a
 * number that is NaN or infinite in a column (JSON writes it as null,
 * which SQLite then refuses as a NOT NULL constraint, naming no value), a
 * value with no JSON form (a BigInt, a cycle), and a row nested deeper than
 * SQLite's JSON functions read. What only SQLite can tell (a key already
 * stored, an SQL error) is isolated when the batch is written
 * (sinks/rowIsolation.ts).
 */
import { describeValue } from '../mind/describeValue.js';
import { MAX_JSON_NESTING, nestsDeeperThan } from './jsonStructure.js';
import type { InsertRows, InsertTable, SqlStatement } from './storeRows.js';

/** Each table's key column: what a refused row is named by. */
export const ROW_KEY: { readonly [T in InsertTable]: string } = {
  sessions: 'id',
  signals: 'id',
  effects: 'id',
  events: 'seq',
  snapshots: 'id',
  provenance: 'seq',
};

/** Each table's numeric columns that take no null. */
const NUMBER_COLUMNS: { readonly [T in InsertTable]: readonly string[] } = {
  sessions: ['started_at', 'first_seq', 'start_cycle'],
  signals: ['id', 'at'],
  effects: ['id', 'cycle', 'n', 'at'],
  events: ['seq', 'cycle', 'at'],
  snapshots: ['id', 'at', 'cycle', 'signal_id'],
  provenance: ['seq', 'cycle', 'at'],
};

/** `the signals row with id 2`: how messages name a row. */
export function rowName(table: string, key: string, value: unknown): string {
  return `the ${table} row with ${key} ${describeValue(value)}`;
}

/** Throws a RangeError naming the first numeric column of the row that holds NaN or an infinity. */
export function checkNumbers(table: InsertTable, row: object): void {
  const fields = row as Record<string, unknown>;
  for (const column of NUMBER_COLUMNS[table]) {
    const value = fields[column];
    if (typeof value === 'number' && !Number.isFinite(value)) throw refusal(RangeError, table, row, `${column} is ${value}, not a finite number (JSON would write null)`);
  }
}

/**
 * The JSON text the row is written as (a snapshot's: its state's, bound as
 * it is). Throws a TypeError for a table that takes no rows, a row that is
 * no object or a column that has no JSON form, and a RangeError naming the
 * column nested too deep for SQLite's JSON functions.
 */
export function rowJson(table: InsertTable, row: object): string {
  if (!Object.hasOwn(ROW_KEY, table)) throw new TypeError(`toSqlite: no table ${describeValue(table)} takes rows (the tables are ${Object.keys(ROW_KEY).join(', ')})`);
  if (row === null || typeof row !== 'object' || Array.isArray(row)) throw new TypeError(`toSqlite: a ${table} row must be an object keyed by column (got ${describeValue(row)})`);
  const value = table === 'snapshots' ? (row as InsertRows['snapshots']).state : row;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    // The first line only: V8 explains a circular structure over several.
    throw refusal(TypeError, table, row, `${culprit(table, row)} has no JSON form (${String((error as Error).message).split('\n')[0]})`, error);
  }
  // A snapshot's state that is undefined, a function or a symbol.
  if (text === undefined) throw refusal(TypeError, table, row, `state has no JSON form (${describeValue(value)})`);
  // A snapshot's state is bound as text, not read through JSON functions as it is inserted: not scanned (a whole mind) at each save.
  if (table !== 'snapshots' && nestsDeeperThan(text, MAX_JSON_NESTING)) {
    const deep = Object.keys(row).find((column) => nestsDeeperThan(JSON.stringify((row as Record<string, unknown>)[column]) ?? '', MAX_JSON_NESTING - 1));
    throw refusal(
      RangeError,
      table,
      row,
      `it nests more than ${MAX_JSON_NESTING} levels deep (objects and arrays within one another${deep === undefined ? '' : `, in its ${deep}`}), more than SQLite's JSON functions read`,
    );
  }
  return text;
}

/** What SQL text holds besides code: strings, quoted names (`"…"`, `` `…` ``, `[…]`) and comments (an unclosed block comment runs to the end). */
const NOT_CODE = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g;

/**
 * Throws a TypeError when a statement is no SQL text with an array of
 * parameters, or would end the transaction it is run in: one that begins or
 * ends a transaction or a savepoint, or whose OR ROLLBACK undoes the whole
 * transaction when it conflicts (its batch would then fail whole, at every
 * retry: sinks/rowIsolation.ts). Strings, quoted names and comments are not
 * read for these words.
 */
export function checkStatement(statement: SqlStatement): void {
  const { sql, params } = (statement ?? {}) as { sql?: unknown; params?: unknown };
  if (typeof sql !== 'string') throw new TypeError(`toSqlite: a statement's sql must be a string (got ${describeValue(sql)})`);
  if (!Array.isArray(params)) throw new TypeError(`toSqlite: the parameters of ${JSON.stringify(sql)} must be an array (got ${describeValue(params)})`);
  const code = sql.replace(NOT_CODE, ' ');
  // The sink writes each batch in its own transaction: one ended or begun inside it would break the order of what is committed.
  if (/^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(code)) {
    throw new TypeError(`toSqlite: ${JSON.stringify(sql)} is refused: the sink runs each statement inside the transaction of its batch, which it begins and commits itself`);
  }
  if (/\bOR\s+ROLLBACK\b/i.test(code)) {
    throw new TypeError(
      `toSqlite: ${JSON.stringify(sql)} is refused: its OR ROLLBACK would undo the whole transaction of its batch when it conflicts, not only itself; leave it out (OR ABORT, the default, undoes only the statement, which the sink then reports and leaves out)`,
    );
  }
}

/** A row's refusal: its message names the row (`toSqlite: the signals row with id 2 is refused: …`); its `reason` is what is wrong, the same for every row refused so. */
export type RowRefusal = Error & { readonly reason: string };

function refusal(Kind: new (message: string, options?: ErrorOptions) => Error, table: InsertTable, row: object, reason: string, cause?: unknown): RowRefusal {
  const name = rowName(table, ROW_KEY[table], (row as Record<string, unknown>)[ROW_KEY[table]]);
  return Object.assign(new Kind(`toSqlite: ${name} is refused: ${reason}`, cause === undefined ? undefined : { cause }), { reason });
}

/** The first column (or a snapshot's `state`) JSON cannot write, or `a column` when none alone fails (a getter that throws once). */
function culprit(table: InsertTable, row: object): string {
  if (table === 'snapshots') return 'state';
  const fails = (value: unknown): boolean => {
    try {
      JSON.stringify(value);
      return false;
    } catch {
      return true;
    }
  };
  return Object.keys(row).find((column) => fails((row as Record<string, unknown>)[column])) ?? 'a column';
}
