/**
 * The environment variables seed 004 configures the heartbeat with, in whole
 * seconds: `HEARTBEAT_INTERVAL` (→ `heartbeatMs`) and
 * `MEMORY_AUTO_SAVE_INTERVAL` (→ `autoSaveMs`). They are a layer of their own
 * under the `OODA_*` variables, which win when both set a key: a seed variable
 * whose `OODA_*` one is set is not read at all (these names are generic, and
 * another program's `HEARTBEAT_INTERVAL=30s` must not stop a run that says
 * `OODA_HEARTBEAT_MS`). A value that is read and is not a whole number of
 * seconds a timer can honour is a {@link ConfigError} naming the variable
 * (the seed's Lisp fell back to its default quietly).
 */
import { configFromEnvironment, ConfigError, MAX_TIMER_MS, type ConfigLayer } from './config.js';

/** Each seed variable and the key it sets, in ms. */
export const SEED_VARIABLES = { HEARTBEAT_INTERVAL: 'heartbeatMs', MEMORY_AUTO_SAVE_INTERVAL: 'autoSaveMs' } as const;

const MAX_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** Reads the seed's variables into a layer, seconds turned into ms. */
export function configFromSeedEnvironment(env: NodeJS.ProcessEnv): ConfigLayer {
  const values: Record<string, unknown> = {};
  const variables = new Map<string, string>();
  // The keys the OODA_* variables set, named as configFromEnvironment names them.
  const overridden = configFromEnvironment(env).variables!;
  for (const [variable, key] of Object.entries(SEED_VARIABLES)) {
    const raw = env[variable];
    if (raw === undefined || overridden.has(key)) continue;
    const seconds = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!(seconds <= MAX_SECONDS)) {
      throw new ConfigError(key, `expected whole seconds from 0 to ${MAX_SECONDS}, got ${JSON.stringify(raw)}`, 'environment', variable);
    }
    values[key] = seconds * 1000;
    variables.set(key, variable);
  }
  return { origin: 'environment', values, variables };
}
