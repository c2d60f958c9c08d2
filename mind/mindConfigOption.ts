/**
 * The options `new Mind(options)` takes, checked before anything is built:
 * an object with no key but `config`, `tools` and `seed` (a misspelt
 * `tool: [weather]` would silently leave the tool out), `tools` an iterable,
 * and a config validated (and completed with its defaults) by the
 * {@link MindConfig} schema, so a bad or partial one is an error naming the
 * key, not a crash at the first memory entry (`workingMemoryCapacity: 0` made
 * the first `remember` fail with "Cannot read properties of undefined").
 * Keys the schema does not know (the agent's own, such as `maxCycles`) are
 * kept as they are.
 */
import { defaultMindConfig, MindConfig } from './config.js';
import { describeValue } from './describeValue.js';
import { issueMessage } from './issueMessage.js';
import type { MindOptions } from './mind.js';

/** Every option new Mind takes (the record makes the compiler name one added to MindOptions and not here). */
const OPTION_KEYS = Object.keys({ config: true, tools: true, seed: true } satisfies Record<keyof MindOptions, true>);

/** Throws a TypeError naming an options value that is no object, a key new Mind does not take, or `tools` that cannot be iterated. */
export function checkMindOptions(options: MindOptions): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`new Mind takes an object of options (${OPTION_KEYS.join(', ')}) (got ${describeValue(options)})`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) throw new TypeError(`new Mind takes no option ${JSON.stringify(key)} (it takes ${OPTION_KEYS.join(', ')})`);
  }
  const { tools } = options as { tools?: unknown };
  if (tools !== undefined && (typeof tools !== 'object' || tools === null || typeof (tools as Iterable<unknown>)[Symbol.iterator] !== 'function')) {
    throw new TypeError(`new Mind: tools must be an iterable of tools, e.g. builtinTools() (got ${describeValue(tools)})`);
  }
}

/** The mind's config, defaults filled in; throws a TypeError naming the first bad key or a seed that is not a whole number. */
export function mindConfigOption(config: unknown, seed: unknown): MindConfig {
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new TypeError(`new Mind: seed must be a whole number (got ${describeValue(seed)})`);
  const resolved = config === undefined ? defaultMindConfig() : parsedConfig(config);
  // The seed the mind's source is seeded with, so its config says what it runs with.
  return seed === undefined ? resolved : { ...resolved, seed: seed as number };
}

function parsedConfig(config: unknown): MindConfig {
  const parsed = MindConfig.safeParse(config, { error: issueMessage });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TypeError(`new Mind: config${issue.path.map((key) => `.${String(key)}`).join('')}: ${issue.message}`);
  }
  return { ...(config as object), ...parsed.data };
}
