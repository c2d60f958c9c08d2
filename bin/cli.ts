/**
 * Shared CLI plumbing: flag parsing with clear usage errors (exit 2), the
 * config layers (defaults < a resumed session's < file < environment < flags)
 * and the log line on stderr. How a run ends (signals, exit codes) is
 * lifecycle.ts.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { repeatedFlagProblem, withCanonicalNames } from './flags.js';
import { configFromEnvironment, configFromSeedEnvironment, ConfigError, MAX_TIMER_MS, readConfigFile, resolveConfig, type AgentConfig, type ConfigLayer } from '../streams/index.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The values parseArgs gives for a flag table. */
export type FlagValues<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>>['values'];

/**
 * parseArgs with strict checking; a problem becomes a UsageError naming the
 * flag, a flag given twice that is not `multiple` included.
 */
export function parseFlags<O extends Options>(argv: string[], options: O): FlagValues<O> {
  let parsed;
  try {
    parsed = parseArgs({ args: attachNegativeNumbers(withCanonicalNames(argv, options), options), options, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(message);
  }
  const repeated = repeatedFlagProblem(parsed.tokens.filter((token) => token.kind === 'option'), options);
  if (repeated) throw new UsageError(repeated);
  return parsed.values as FlagValues<O>;
}

/**
 * `--flag -5` → `--flag=-5` for a flag that takes a value, so a negative number
 * reaches the flag's own check ("must be at least 0") instead of parseArgs'
 * "argument is ambiguous".
 */
function attachNegativeNumbers(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg.startsWith('--') && options[arg.slice(2)]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** A whole number flag (`--max-cycles 20`) from `min` (default 0) to `max`, or undefined when absent. */
export function intFlag(name: string, raw: string | undefined, { min = 0, max = Number.MAX_SAFE_INTEGER, unit = '' } = {}): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${name}: expected a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min) throw new UsageError(`--${name}: must be at least ${min}, got ${raw.trim()}`);
  if (value > max) throw new UsageError(`--${name}: must be at most ${max}${unit}, got ${raw.trim()}`);
  return value;
}

/** A period flag in ms (`--pace 500`): 0 to the longest timer Node honours, {@link MAX_TIMER_MS}. */
export function msFlag(name: string, raw: string | undefined): number | undefined {
  return intFlag(name, raw, { max: MAX_TIMER_MS, unit: ' ms (the longest timer Node honours)' });
}

/** A text flag that must not be empty (`--session ID`), or undefined when absent. */
export function textFlag(name: string, raw: string | undefined, what: string): string | undefined {
  if (raw !== undefined && raw.trim() === '') throw new UsageError(`--${name}: expected ${what}, got ${raw === '' ? 'an empty string' : `only whitespace (${JSON.stringify(raw)})`}`);
  return raw;
}

/** A repeatable text flag (`--goal TEXT`...) whose every value must not be empty. */
export function textFlags(name: string, raws: readonly string[] = [], what: string): string[] {
  for (const raw of raws) textFlag(name, raw, what);
  return [...raws];
}

/** Why a file cannot be read, in a few words. */
const FILE_PROBLEMS: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'is a directory', ENOTDIR: 'a part of the path is not a directory' };

/**
 * File flags (`--kg FILE`, repeatable) that must be readable files: a missing
 * file, a directory or one without read permission is a usage error naming
 * the flag, the file and the reason before anything starts. Looked at, not
 * opened: opening a named pipe would wait for its writer, and take the
 * writer's connection, and its data, from the run that reads it.
 */
export function readableFiles(name: string, files: readonly string[] = []): string[] {
  for (const file of files) {
    let problem: string | undefined;
    try {
      if (statSync(file).isDirectory()) problem = FILE_PROBLEMS.EISDIR;
      else accessSync(file, constants.R_OK);
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      problem = (code && FILE_PROBLEMS[code]) ?? message;
    }
    if (problem) throw new UsageError(`--${name}: cannot read ${JSON.stringify(file)}: ${problem}`);
  }
  return [...files];
}

/**
 * The layer of `--config FILE`, or undefined without it. Read once, as a
 * command starts (a named pipe or `<(cmd)` cannot be read twice), and
 * without blocking the event loop: a signal still ends the command while a
 * pipe's writer is awaited.
 */
export async function configFileLayer(configFile: string | undefined): Promise<ConfigLayer | undefined> {
  const file = textFlag('config', configFile, 'a file name');
  return file === undefined ? undefined : readConfigFile(file);
}

/**
 * Resolves the configuration from its layers: the command's own `defaults`
 * (demo's shorter run) < the config of the session it resumes, if any
 * (`maxCycles` aside: it counts the cycles of this run) < `--config`'s file
 * (read by {@link configFileLayer}) < the seed's variables in seconds
 * (streams/seedEnvironment.ts) < `OODA_*` variables < flags.
 */
export function loadConfig(file: ConfigLayer | undefined, flags: Record<string, unknown>, defaults: Record<string, unknown> = {}, resumed?: AgentConfig): AgentConfig {
  const layers: ConfigLayer[] = [{ origin: 'command defaults', values: defaults }];
  if (resumed) {
    const { maxCycles: _, ...kept } = resumed;
    layers.push({ origin: 'the resumed session', values: kept });
  }
  if (file) layers.push(file);
  layers.push(configFromSeedEnvironment(process.env), configFromEnvironment(process.env));
  const defined = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  layers.push({ origin: 'flags', values: defined });
  return resolveConfig(layers);
}

/** Writes a log line to stderr (data goes to stdout). */
export function log(line: string): void {
  process.stderr.write(`ooda: ${line}\n`);
}

export { ConfigError };
