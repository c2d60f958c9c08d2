/**
 * Shared CLI plumbing: flag parsing with clear usage errors (exit 2), the
 * config layers (defaults < file < environment < flags), and the process
 * lifecycle (SIGINT → 130, SIGTERM → 143, a second signal forces the exit).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { configFromEnvironment, ConfigError, readConfigFile, resolveConfig, type AgentConfig } from '../streams/index.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Command {
  /** One line for `ooda --help`. */
  summary: string;
  /** The full usage text for `ooda COMMAND --help`. */
  usage: string;
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with strict checking; a problem becomes a UsageError naming the flag. */
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>>;

export function parseFlags<O extends Options>(argv: string[], options: O): Parsed<O> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(message);
  }
}

/** A whole number flag (`--max-cycles 20`), or undefined when absent. */
export function intFlag(name: string, raw: string | undefined, { min = 0 } = {}): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${name}: expected a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min) throw new UsageError(`--${name}: must be at least ${min}, got ${value}`);
  return value;
}

/** Resolves the configuration from its layers; flags win. */
export function loadConfig(configFile: string | undefined, flags: Record<string, unknown>): AgentConfig {
  const layers = [];
  if (configFile) layers.push(readConfigFile(configFile));
  layers.push(configFromEnvironment(process.env));
  const defined = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  layers.push({ origin: 'flags', values: defined });
  return resolveConfig(layers);
}

/** Writes a log line to stderr (data goes to stdout). */
export function log(line: string): void {
  process.stderr.write(`ooda: ${line}\n`);
}

/**
 * Runs until `done` settles; SIGINT / SIGTERM call `stop` (graceful) and set
 * the exit code to 130 / 143; a second signal exits at once.
 */
export async function withSignals(stop: (reason: string) => void, done: Promise<unknown>): Promise<number> {
  let code = 0;
  const handler = (signal: NodeJS.Signals): void => {
    if (code !== 0) process.exit(code);
    code = signal === 'SIGINT' ? 130 : 143;
    log(`${signal} received: stopping (sources first, then draining and flushing)`);
    stop(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    await done;
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
  return code;
}

export { ConfigError };
