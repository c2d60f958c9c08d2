/**
 * `ooda demo` (what `npm start` runs): the agent on the embedded demo
 * knowledge base and goals, printing a readable log of its cycles.
 */
import { demoGoals, demoKnowledgeFile } from '../../streams/index.js';
import { log, withSignals, type Command } from '../cli.js';
import { startPersistentProgram, startProgram } from '../../streams/index.js';
import { listenWs, parseRun, RUN_USAGE } from './run.js';

export const demo: Command = {
  summary: 'run the agent on the embedded demo knowledge base and goals (what npm start runs)',
  usage: RUN_USAGE.replace('ooda run [--goal TEXT]... [options]', 'ooda demo [options]').replace('(default ./ooda.db; ', '(default: none; '),
  async run(argv) {
    const { options, ws, store } = parseRun(['--max-cycles', '60', '--heartbeat', '0', ...argv], {
      goals: demoGoals(),
      files: [demoKnowledgeFile()],
      format: 'pretty',
      readStdin: false,
    });
    log(`demo: ${options.goals.length} goals over ${demoKnowledgeFile()}`);
    const server = await listenWs(ws);
    const withWs = { ...options, ...(server ? { ws: server } : {}) };
    const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
    const program = store ? await startPersistentProgram(withWs, store, io, log) : startProgram(withWs, io);
    const code = await withSignals(program.stop, program.done);
    const goals = program.agent.mind.goals.all();
    const count = (status: string) => goals.filter((g) => g.status === status).length;
    log(`demo ended (${await program.done}) after ${program.agent.mind.cycle} cycles: ${count('Completed')} completed, ${count('Failed')} failed, ${count('Active')} active, ${count('Suspended')} suspended`);
    return code;
  },
};
