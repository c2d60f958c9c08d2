/**
 * The flags shared by the commands that inspect an in-process agent
 * (`ooda plan`, `ooda reflect`, `ooda repl`): goals, knowledge files, cycles
 * to run first, config file and seed.
 */
import type { AgentConfig } from '../streams/index.js';
import { intFlag, loadConfig, parseFlags, readableFiles } from './cli.js';

export const AGENT_FLAGS = {
  goal: { type: 'string', multiple: true },
  kg: { type: 'string', multiple: true },
  cycles: { type: 'string' },
  config: { type: 'string' },
  seed: { type: 'string' },
} as const;

export const AGENT_FLAGS_USAGE = `  --goal TEXT         add a goal (repeatable)
  --kg FILE           read signals (usually facts) from an NDJSON file first (repeatable)
  --config FILE       JSON config file (layers: defaults < file < OODA_* environment < flags)
  --seed N            seed for ids and randomness (default 1)
  -h, --help          this help`;

export interface AgentFlags {
  config: AgentConfig;
  goals: string[];
  files: string[];
  cycles: number;
}

/** Parses the shared flags; `--cycles` defaults to `defaultCycles`. */
export function parseAgentFlags(argv: string[], defaultCycles: number): AgentFlags {
  const { values } = parseFlags(argv, AGENT_FLAGS);
  const config = loadConfig(values.config, { seed: intFlag('seed', values.seed, { min: -2147483648 }), heartbeatMs: 0 });
  return {
    config,
    goals: values.goal ?? [],
    files: readableFiles('kg', values.kg),
    cycles: intFlag('cycles', values.cycles) ?? defaultCycles,
  };
}
