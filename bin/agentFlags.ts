/**
 * The flags shared by the commands that inspect an in-process agent
 * (`ooda plan`, `ooda reflect`, `ooda repl`): goals, knowledge files, config
 * file and seed, plus `--cycles` to run first for those that take it.
 */
import { defaultConfig, type AgentConfig } from '../streams/index.js';
import { configFileLayer, intFlag, loadConfig, readableFiles, textFlags, type FlagValues } from './cli.js';
import type { Flags } from './flags.js';

export const AGENT_FLAGS = {
  goal: { type: 'string', multiple: true, arg: 'TEXT', help: 'add a goal (repeatable)', aliases: ['goals'] },
  kg: { type: 'string', multiple: true, arg: 'FILE', help: 'read signals (usually facts) from an NDJSON file first (repeatable)' },
  config: { type: 'string', arg: 'FILE', help: 'JSON config file (layers: defaults < file < OODA_* environment < flags)' },
  seed: { type: 'string', arg: 'N', help: `seed for ids and randomness (default ${defaultConfig().seed})` },
} as const satisfies Flags;

/** {@link AGENT_FLAGS} with `--cycles N`, described as `what` N cycles do, defaulting to `defaultCycles`. */
export function agentFlagsWithCycles(what: string, defaultCycles: number) {
  return { cycles: { type: 'string', arg: 'N', help: `${what} (default ${defaultCycles})` }, ...AGENT_FLAGS } as const satisfies Flags;
}

export interface AgentFlags {
  config: AgentConfig;
  goals: string[];
  files: string[];
  cycles: number;
}

/** Parses the shared flags (reading `--config`'s file); `--cycles` (when the command has it) defaults to `defaultCycles`. */
export async function parseAgentFlags(values: FlagValues<ReturnType<typeof agentFlagsWithCycles>>, defaultCycles: number): Promise<AgentFlags> {
  const seed = intFlag('seed', values.seed, { min: -2147483648 });
  const config = loadConfig(await configFileLayer(values.config), { seed, heartbeatMs: 0 });
  return {
    config,
    goals: textFlags('goal', values.goal, 'a goal description'),
    files: readableFiles('kg', values.kg),
    cycles: intFlag('cycles', values.cycles) ?? defaultCycles,
  };
}
