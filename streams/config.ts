/**
 * Agent configuration: one zod schema, merged defaults < file < environment < flags.
 *
 * Environment variables are `OODA_` + the key path in upper snake case, nested
 * keys joined by `__`: `OODA_MAX_CYCLES=50`, `OODA_TOOLS__SHELL_EXEC=true`.
 * A bad value anywhere is a {@link ConfigError} naming the key (in the
 * environment, the variable too: `OODA_MAX_CYCLES (maxCycles)`) and the reason.
 */
import { z } from 'zod';
import { MindConfig, periodMs } from '../mind/config.js';
import { describeValue, showValue } from '../mind/describeValue.js';
import { settingHint } from '../mind/settingName.js';
import { isObject } from './isObject.js';
import { readText } from './readableFile.js';

export { MAX_TIMER_MS } from '../mind/config.js';

export const AgentConfig = MindConfig.extend({
    /** Stop `run` once the mind has run this many cycles (seed 001: 1000): the agent's count, which a second `run()` continues. */
    maxCycles: z.number().int().nonnegative().default(1000),
    /** Heartbeat period in ms (seed 004: 60 s) of `ooda run` and startProgram; 0 turns the heartbeat off. createAgent starts none itself (pass `ambient: [heartbeat(ms)]`). */
    heartbeatMs: periodMs().default(60_000),
    /** Pause between driven cycles in ms; 0 runs them back to back. */
    paceMs: periodMs().default(0),
    /** Feedback depth limit (seed 004: 10). */
    maxDepth: z.number().int().positive().default(10),
    /**
     * How long an asynchronous tool may run, in ms, on the scheduler: one that
     * has not settled by then fails transiently (`timed out after N ms`) and
     * its late result is discarded; 0: no limit.
     */
    toolTimeoutMs: periodMs().default(30_000),
    /** Auto-save period in ms on the heartbeat (seed 004: 300 s). */
    autoSaveMs: periodMs().default(300_000),
    /** Reflection settings (seed 002): every `interval` cycles. */
    reflection: z
      .object({
        interval: z.number().int().positive().default(5),
        minCyclesWorked: z.number().int().nonnegative().default(0),
      })
      .strict()
      .default({ interval: 5, minCyclesWorked: 0 }),
    /**
     * Loop-detector settings (seed 003). Validated by the detector itself: an
     * invalid value falls back to its default with a warning event, and an
     * unknown key is warned about. Copied key by key as they are, so a
     * `"__proto__"` key (which zod's record drops) reaches that warning too.
     */
    loopDetection: z
      .custom<Record<string, unknown>>(isObject, { error: 'expected an object of loop-detection settings' })
      .transform((section) => ({ ...section }))
      .default({}),
}).strict();

export type AgentConfig = z.infer<typeof AgentConfig>;
export type AgentConfigInput = z.input<typeof AgentConfig>;

export class ConfigError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
    readonly origin: string,
    /** The environment variable(s) that set `key`, when it came from them: the message names both. */
    readonly variable?: string,
  ) {
    super(`config ${origin}: ${variable ? `${variable} (${key})` : key}: ${reason}`);
    this.name = 'ConfigError';
  }
}

/** The defaults, fully resolved. */
export function defaultConfig(): AgentConfig {
  return AgentConfig.parse({});
}

/** One source of config values; `variables` (the environment's) maps a key path (`tools.shellExec`) to the variable that set it. */
export type ConfigLayer = { origin: string; values: Record<string, unknown>; variables?: ReadonlyMap<string, string> };

/**
 * Validates each layer on its own, in order, then merges them (later wins,
 * objects merged key by key). Throws {@link ConfigError} naming the first bad
 * key and the layer it is in, even when a later layer overrides it; a layers
 * list or a layer that is none is a TypeError naming it.
 */
export function resolveConfig(layers: ConfigLayer[]): AgentConfig {
  if (!Array.isArray(layers)) throw new TypeError(`resolveConfig takes an array of layers ({ origin, values }), got ${describeValue(layers)}`);
  let merged: Record<string, unknown> = {};
  for (const [i, layer] of layers.entries()) {
    if (!isObject(layer)) throw new TypeError(`resolveConfig layers[${i}]: expected { origin, values: { …config } }, got ${describeValue(layer)}`);
    validate(layer);
    merged = deepMerge(merged, layer.values);
  }
  return validate({ origin: 'merged layers', values: merged });
}

/** Parses one layer's values (the defaults fill the rest); a bad key is a ConfigError naming the layer. */
function validate(layer: ConfigLayer): AgentConfig {
  const parsed = AgentConfig.safeParse(layer.values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [issue.path.join('.') || '(root)'];
  const variables = keys.flatMap((key) => layer.variables?.get(key) ?? []);
  const value = issue.code === 'unrecognized_keys' ? undefined : valueAt(layer.values, issue.path);
  const hint = issue.code === 'unrecognized_keys' ? settingHint(issue.keys[0]!, settingsAt(issue.path)) : '';
  const reason = value === undefined ? `${issue.message}${hint}` : `${issue.message} (got ${showValue(value)})`;
  throw new ConfigError(keys.join(', '), reason, layer.origin, variables.length ? variables.join(', ') : undefined);
}

/** The settings of the config section at `path` (top level: `[]`), for a misspelt key's hint. */
function settingsAt(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = AgentConfig;
  for (const key of path) {
    while (schema instanceof z.ZodDefault) schema = schema.unwrap() as z.ZodType;
    if (!(schema instanceof z.ZodObject)) return [];
    schema = (schema.shape as Record<string, z.ZodType>)[String(key)] ?? z.never();
  }
  while (schema instanceof z.ZodDefault) schema = schema.unwrap() as z.ZodType;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** The value a layer gives at a key path, if any. */
function valueAt(values: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let node: unknown = values;
  for (const key of path) node = isPlainObject(node) || Array.isArray(node) ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  return node;
}

/**
 * A JSON.parse message with the line and column of the position it names
 * (`… at position 33 (line 4, column 1)`): in a file of several lines a
 * character offset alone is hard to find.
 */
function withLineAndColumn(message: string, json: string): string {
  const position = /at position (\d+)/.exec(message);
  if (!position) return message;
  const before = json.slice(0, Number(position[1])).split('\n');
  return `${message} (line ${before.length}, column ${before.at(-1)!.length + 1})`;
}

/**
 * Reads a JSON config file (a leading byte-order mark is skipped); rejects
 * with a {@link ConfigError} naming the file and the problem when it cannot.
 * A named pipe (or `<(cmd)`) is read without blocking the event loop while
 * its writer is awaited (streams/readableFile.ts), and can be read only once.
 */
export async function readConfigFile(path: string): Promise<ConfigLayer> {
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    throw new ConfigError('(file)', `cannot read ${path}: ${(error as Error).message}`, path);
  }
  let values: unknown;
  const json = text.replace(/^\uFEFF/, '');
  try {
    values = JSON.parse(json);
  } catch (error) {
    throw new ConfigError('(file)', `not valid JSON: ${withLineAndColumn((error as Error).message, json)}`, path);
  }
  if (!isPlainObject(values)) throw new ConfigError('(file)', `expected a JSON object of config keys, got ${describeValue(values)}`, path);
  return { origin: path, values };
}

/** Reads `OODA_*` variables into a layer, coercing numbers, booleans and JSON arrays. */
export function configFromEnvironment(env: NodeJS.ProcessEnv): ConfigLayer {
  const values: Record<string, unknown> = {};
  const variables = new Map<string, string>();
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('OODA_') || raw === undefined) continue;
    const path = name
      .slice(5)
      .split('__')
      .map((part) => part.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
    setPath(values, path, coerce(raw));
    variables.set(path.join('.'), name);
  }
  return { origin: 'environment', values, variables };
}

function coerce(raw: string): unknown {
  const trimmed = raw.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed) || trimmed === 'true' || trimmed === 'false' || /^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return raw;
    }
  }
  return raw;
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prior = Object.hasOwn(out, key) ? out[key] : undefined;
    const merged = isPlainObject(prior) && isPlainObject(value) ? deepMerge(prior, value) : value;
    // Defined, not assigned: a "__proto__" key stays a key (to be refused or warned about), not the object's prototype.
    Object.defineProperty(out, key, { value: merged, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}
