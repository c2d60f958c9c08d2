/**
 * `ooda plan`: builds the agent from --kg files and --goal flags, runs
 * --cycles cycles (default 0), and prints the current plan of each active goal.
 */
import { runCommand, runLocalAgent } from '../../streams/index.js';
import { AGENT_FLAGS_USAGE, parseAgentFlags } from '../agentFlags.js';
import { log, type Command } from '../cli.js';
import { printLines } from '../output.js';

const USAGE = `usage: ooda plan [--goal TEXT]... [--kg FILE]... [--cycles N] [options]

Prints the current plan of each active goal: its strategy, meta-strategy
(explore-first on even attempts, reason-first on odd ones), attempt and steps.

options:
  --cycles N          run N cycles before printing (default 0: the first plans)
${AGENT_FLAGS_USAGE}`;

export const plan: Command = {
  summary: 'print the current plan of each active goal',
  usage: USAGE,
  async run(argv) {
    const flags = parseAgentFlags(argv, 0);
    const agent = await runLocalAgent({ ...flags, onEvent: reportProblems });
    await printLines([runCommand(agent, 'plan').result]);
    return 0;
  },
};

/** Rejected lines and errors go to stderr. */
export function reportProblems(event: { kind: string; reason?: string; message?: string }): void {
  if (event.kind === 'rejected') log(`rejected: ${event.reason}`);
  if (event.kind === 'error') log(`error: ${event.message}`);
}
