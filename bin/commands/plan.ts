/**
 * `ooda plan`: builds the agent from --kg files and --goal flags, runs
 * --cycles cycles (default 0), and prints the current plan of each active goal.
 */
import { describeEvent, runCommand, runLocalAgent, type AgentEvent } from '../../streams/index.js';
import { agentFlagsWithCycles, parseAgentFlags } from '../agentFlags.js';
import { log } from '../cli.js';
import { defineCommand } from '../command.js';
import { printLines } from '../output.js';

const CYCLES = 0;

export const plan = defineCommand({
  summary: 'print the current plan of each active goal',
  about: `usage: ooda plan [--goal TEXT]... [--kg FILE]... [--cycles N] [options]

Prints the current plan of each active goal: its strategy, meta-strategy
(explore-first on even attempts, reason-first on odd ones), attempt and steps.`,
  flags: agentFlagsWithCycles('run N cycles before printing the plans', CYCLES),
  async run(values) {
    const agent = await runLocalAgent({ ...(await parseAgentFlags(values, CYCLES)), onEvent: reportProblems });
    await printLines([runCommand(agent, 'plan').result]);
    return 0;
  },
});

/**
 * Rejected lines, errors and warnings (a loopDetection setting that fell back to its default, …) go to stderr,
 * each as `ooda run --format pretty` and the REPL say it (`rejected bad.ndjson:3: not JSON: …`).
 * The max-cycles warning does not: it tells a run fed by open input that it goes on without cycles, while here
 * --cycles is the number asked for (0 by default for plan) and the input, the --kg files and --goal flags, ends by itself.
 */
export function reportProblems(event: AgentEvent): void {
  const problem = event.kind === 'rejected' || event.kind === 'error' || (event.kind === 'warning' && event.key !== 'maxCycles');
  if (problem) log(describeEvent(event)!);
}
