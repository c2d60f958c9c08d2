/**
 * `ooda demo` (what `npm start` runs): the agent on the embedded demo
 * knowledge base and goals, printing a readable log of its cycles. It takes
 * `run`'s flags with a shorter run's defaults; it reads no stdin (--goal and
 * --kg add to the demo's own).
 */
import { demoGoals, demoKnowledgeFile } from '../../streams/index.js';
import { log } from '../cli.js';
import { defineCommand } from '../command.js';
import { withSignals } from '../lifecycle.js';
import { withoutFlags } from '../flags.js';
import { cyclesRun, parseRun, RUN_EXIT_CODES, runFlags, startRun, type RunDefaults } from './run.js';

const DEMO_DEFAULTS: RunDefaults = { maxCycles: 60, heartbeatMs: 0, format: 'pretty', stdin: false };

export const demo = defineCommand({
  summary: 'run the agent on the embedded demo knowledge base and goals (what npm start runs)',
  about: `usage: ooda demo [options]

Runs the agent on the embedded demo knowledge base and goals (plus any --goal
and --kg), as a readable log on stdout, logs on stderr. stdin is not read:
pipe signals to 'ooda run' instead. Nothing is persisted unless --db is given.`,
  flags: withoutFlags(runFlags(DEMO_DEFAULTS), 'no-stdin'),
  refused: { 'no-stdin': 'it reads no stdin anyway; pipe signals to ooda run' },
  footer: RUN_EXIT_CODES,
  async run(values) {
    const parsed = await parseRun(values, { ...DEMO_DEFAULTS, goals: demoGoals(), files: [demoKnowledgeFile()] });
    log(`demo: ${parsed.options.goals.length} goals over ${demoKnowledgeFile()}`);
    const { code, program } = await withSignals(parsed, (startUp) => startRun(parsed, startUp));
    if (!program) return code;
    const goals = program.agent.mind.goals.all();
    const count = (status: string) => goals.filter((g) => g.status === status).length;
    log(`demo ended (${await program.done}) after ${cyclesRun(program)}: ${count('Completed')} completed, ${count('Failed')} failed, ${count('Active')} active, ${count('Suspended')} suspended`);
    return code;
  },
});
