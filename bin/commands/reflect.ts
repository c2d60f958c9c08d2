/**
 * `ooda reflect`: builds the agent from --kg files and --goal flags, runs
 * --cycles cycles (default 4), reflects at once and prints the adjustments,
 * the tools' success rates and the psyche's evolution.
 */
import { formatReflection, runCommand, runLocalAgent, type Draft } from '../../streams/index.js';
import { AGENT_FLAGS_USAGE, parseAgentFlags } from '../agentFlags.js';
import type { Command } from '../cli.js';
import { printLines } from '../output.js';
import { reportProblems } from './plan.js';

const USAGE = `usage: ooda reflect [--goal TEXT]... [--kg FILE]... [--cycles N] [options]

Runs the agent for N cycles, then reflects at once (as the 'reflect' command
does) and prints each adjustment with its reason.

options:
  --cycles N          run N cycles before reflecting (default 4)
${AGENT_FLAGS_USAGE}`;

export const reflect: Command = {
  summary: 'run a reflection and print its adjustments',
  usage: USAGE,
  async run(argv) {
    const flags = parseAgentFlags(argv, 4);
    const agent = await runLocalAgent({ ...flags, onEvent: reportProblems });
    const { events } = runCommand(agent, 'reflect');
    const reflection = events.find((e): e is Draft<'reflection'> => e.kind === 'reflection')!;
    await printLines([formatReflection(reflection)]);
    return 0;
  },
};
