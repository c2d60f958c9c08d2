/**
 * `ooda repl`: an interactive session on stdin/stdout (add goals, step
 * cycles, p/plan, r/reflect, c/consolidate, q).
 */
import { createAgent, REPL_HELP, runRepl } from '../../streams/index.js';
import { AGENT_FLAGS, parseAgentFlags } from '../agentFlags.js';
import { defineCommand } from '../command.js';

export const repl = defineCommand({
  summary: 'interactive session: add goals, step cycles, plan, reflect, consolidate',
  about: `usage: ooda repl [--goal TEXT]... [--kg FILE]... [options]

An interactive session: cycles run only when you step them.

${REPL_HELP}`,
  flags: AGENT_FLAGS,
  async run(values) {
    const flags = await parseAgentFlags(values, 0);
    const agent = createAgent({ config: flags.config, session: 'repl' });
    await runRepl({ agent, input: process.stdin, output: process.stdout, files: flags.files, goals: flags.goals });
    return 0;
  },
});
