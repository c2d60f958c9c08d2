/**
 * The `effects` table's rows: a tool's recorded effect (streams/effects.ts)
 * as the store writes it, and read back, checked, for a re-run. A row that
 * is not what ooda-rx writes (an edited outcome, a value that is not JSON)
 * is a {@link StoreError} naming it.
 */
import type { EffectKey, RecordedEffect } from '../streams/effects.js';
import type { SqliteStore } from './sqliteStore.js';
import { StoreError } from './storeError.js';
import type { EffectRow } from './storeSchema.js';
import { tablesOf } from './storeVersion.js';
import type { InsertRows } from './storeRows.js';

/** An effect as the `effects` table's row `id` (the order it settled in) of `session`. */
export function effectRow(id: number, session: string, effect: RecordedEffect): InsertRows['effects'] {
  const { cycle, n, at, tool, name, outcome, value } = effect;
  return { id, session, cycle, n, at, tool, name, outcome, ...(value === undefined ? {} : { value }) };
}

/** The session's recorded effects, by key, for a re-run; none from a store older than effects (schema version 1, read as it is). */
export function recordedEffects(store: SqliteStore, session: string): ((key: EffectKey) => Promise<RecordedEffect | undefined>) | undefined {
  if (!tablesOf(store.schemaVersion).includes('effects')) return undefined;
  return (key) => recordedEffect(store, session, key);
}

/** The effect the session recorded at `key`, or undefined when it recorded none there. */
async function recordedEffect(store: SqliteStore, session: string, key: EffectKey): Promise<RecordedEffect | undefined> {
  const row = await store.get<EffectRow>('SELECT * FROM effects WHERE session = ? AND cycle = ? AND n = ?', [session, key.cycle, key.n]);
  if (!row) return undefined;
  const where = `store: effect ${row.id} of session ${session}`;
  if (row.outcome !== 'ok' && row.outcome !== 'error' && row.outcome !== 'abandoned') {
    throw new StoreError(`${where} has outcome ${JSON.stringify(row.outcome)} (ok, error or abandoned): the file was damaged or edited`, 'RECORDING');
  }
  const effect: RecordedEffect = { id: row.id, cycle: row.cycle, n: row.n, at: row.at, tool: row.tool, name: row.name, outcome: row.outcome };
  if (row.value === null) return effect;
  try {
    return { ...effect, value: JSON.parse(row.value) as unknown };
  } catch (error) {
    throw new StoreError(`${where}: its value is not JSON (${(error as Error).message}): the file was damaged or edited`, 'RECORDING');
  }
}
