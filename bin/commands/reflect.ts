/**
 * `ooda reflect`: builds the agent from --kg files and --goal flags, runs
 * --cycles cycles (default 4), reflects at once and prints the adjustments,
 * the tools' success rates and the psyche's evolution.
 */
import { formatReflection, runCommand, runLocalAgent, type Draft } from '../../streams/index.js';
import { agentFlagsWithCycles, parseAgentFlags } from '../agentFlags.js';
import { defineCommand } from '../command.js';
import { printLines } from '../output.js';
import { reportProblems } from './plan.js';

const CYCLES = 4;

export const reflect = defineCommand({
  summary: 'run a reflection and print its adjustments',
  about: `usage: ooda reflect [--goal TEXT]... [--kg FILE]... [--cycles N] [options]

Runs the agent for N cycles, then reflects at once (as the 'reflect' command
does) and prints each adjustment with its reason.`,
  flags: agentFlagsWithCycles('run N cycles before reflecting', CYCLES),
  async run(values) {
    const agent = await runLocalAgent({ ...(await parseAgentFlags(values, CYCLES)), onEvent: reportProblems });
    const { events } = runCommand(agent, 'reflect');
    const reflection = events.find((e): e is Draft<'reflection'> => e.kind === 'reflection')!;
    await printLines([formatReflection(reflection)]);
    return 0;
  },
});
