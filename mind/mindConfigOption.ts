/**
 * The config and seed `new Mind(options)` takes, checked before anything is
 * built: a config is validated (and completed with its defaults) by the
 * {@link MindConfig} schema, so a bad or partial one is an error naming the
 * key, not a crash at the first memory entry (`workingMemoryCapacity: 0` made
 * the first `remember` fail with "Cannot read properties of undefined").
 * Keys the schema does not know (the agent's own, such as `maxCycles`) are
 * kept as they are.
 */
import { defaultMindConfig, MindConfig } from './config.js';
import { describeValue } from './describeValue.js';
import { issueMessage } from './issueMessage.js';

/** The mind's config, defaults filled in; throws a TypeError naming the first bad key or a seed that is not a whole number. */
export function mindConfigOption(config: unknown, seed: unknown): MindConfig {
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new TypeError(`new Mind: seed must be a whole number (got ${describeValue(seed)})`);
  if (config === undefined) return defaultMindConfig();
  const parsed = MindConfig.safeParse(config, { error: issueMessage });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TypeError(`new Mind: config${issue.path.map((key) => `.${String(key)}`).join('')}: ${issue.message}`);
  }
  return { ...(config as object), ...parsed.data };
}
