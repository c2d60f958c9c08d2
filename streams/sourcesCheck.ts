/**
 * The checks `agent.run(sources)` makes before it starts, so that a bad source
 * is an error naming it rather than a TypeError from deep inside (`Spread
 * syntax requires ...iterable[Symbol.iterator] to be a function` for
 * `inputs: of(x)`) or a source silently left out (a misspelt `input`, which
 * would end the run at once for want of input).
 */
import { describeValue } from '../mind/describeValue.js';
import type { AgentSources } from './agentOptions.js';

const SOURCE_KEYS: readonly (keyof AgentSources)[] = ['inputs', 'signals', 'live', 'ambient', 'keepAlive', 'drive', 'hold'];

/** Whether a value can be subscribed to as an Observable. */
const subscribable = (value: unknown): boolean => typeof (value as { subscribe?: unknown } | null)?.subscribe === 'function';

/** Throws a TypeError naming the first bad source: `inputs[1] must be an Observable (got 5)`, `run() takes no source "input" (…)`. */
export function checkSources(sources: AgentSources): void {
  if (sources === null || typeof sources !== 'object' || Array.isArray(sources)) {
    throw new TypeError(`run() takes an object of sources (${SOURCE_KEYS.join(', ')}) (got ${describeValue(sources)})`);
  }
  for (const key of Object.keys(sources)) {
    if (!(SOURCE_KEYS as readonly string[]).includes(key)) throw new TypeError(`run() takes no source ${JSON.stringify(key)} (it takes ${SOURCE_KEYS.join(', ')})`);
  }
  const record = sources as Record<keyof AgentSources, unknown>;
  for (const name of ['inputs', 'signals', 'live', 'ambient'] as const) {
    const list = record[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new TypeError(`${name} must be an array of Observables (got ${describeValue(list)})`);
    list.forEach((item, i) => {
      if (!subscribable(item)) throw new TypeError(`${name}[${i}] must be an Observable (got ${describeValue(item)})`);
    });
  }
  for (const name of ['keepAlive', 'drive'] as const) {
    const value = record[name];
    if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`${name} must be true or false (got ${describeValue(value)})`);
  }
  if (record.hold !== undefined && !subscribable(record.hold)) throw new TypeError(`hold must be an Observable of booleans (got ${describeValue(record.hold)})`);
}
