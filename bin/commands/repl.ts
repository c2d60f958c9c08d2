/**
 * `ooda repl`: an interactive session on stdin/stdout (add goals, step
 * cycles, p/plan, r/reflect, c/consolidate, q).
 */
import { createAgent, REPL_HELP, runRepl } from '../../streams/index.js';
import { AGENT_FLAGS_USAGE, parseAgentFlags } from '../agentFlags.js';
import type { Command } from '../cli.js';

const USAGE = `usage: ooda repl [--goal TEXT]... [--kg FILE]... [options]

An interactive session: cycles run only when you step them.

${REPL_HELP}

options:
${AGENT_FLAGS_USAGE}`;

export const repl: Command = {
  summary: 'interactive session: add goals, step cycles, plan, reflect, consolidate',
  usage: USAGE,
  async run(argv) {
    const flags = parseAgentFlags(argv, 0);
    const agent = createAgent({ config: flags.config, session: 'repl' });
    await runRepl({ agent, input: process.stdin, output: process.stdout, files: flags.files, goals: flags.goals });
    return 0;
  },
};
