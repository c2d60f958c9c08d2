/**
 * The interactive session behind `ooda repl` (seed 001/002's agent REPL),
 * line-based with node:readline so it works in any plain terminal or pipe.
 *
 * The agent runs undriven: cycles happen only when asked (`s`/`step [N]`),
 * so each answer reflects exactly what was typed. Events print as readable
 * lines while they happen.
 *
 *   g TEXT | goal TEXT   add a goal
 *   s [N]  | step [N]    run N cycles (default 1)
 *   p      | plan        show the current plan of each active goal
 *   r      | reflect     reflect now and show the adjustments
 *   c      | consolidate consolidate working memory into episodes
 *   status               one line about the agent
 *   h      | help        this list
 *   q      | quit        end the session
 *
 * Output that goes away (`ooda repl | head`) ends the session quietly, as
 * `ooda run` does; output that cannot be written (a full disk) ends it and
 * fails it with an OutputError.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { finalize, lastValueFrom, Subject } from 'rxjs';
import { OutputError, readerGone } from '../sinks/outputError.js';
import { describe } from '../sinks/prettyLog.js';
import type { Agent } from './createAgent.js';
import type { AgentEvent } from './events.js';
import { formatReflection } from './planningText.js';
import { knowledgeAndGoals } from './program.js';
import type { CommandName, Signal } from './signals.js';

export const REPL_HELP = `commands:
  g TEXT | goal TEXT    add a goal
  s [N]  | step [N]     run N cycles (default 1)
  p      | plan         show the current plan of each active goal
  r      | reflect      reflect now and show the adjustments
  c      | consolidate  consolidate working memory into episodes
  status                one line about the agent
  h      | help         this list
  q      | quit         end the session`;

/** The most cycles one `step` runs. */
export const MAX_STEP = 1000;

export interface ReplOptions {
  agent: Agent;
  input: Readable;
  output: Writable;
  /** Knowledge files and goals to load first. */
  files?: string[];
  goals?: string[];
  prompt?: string;
}

/** Runs the REPL until `q`, the end of input or of the output; resolves once the agent's run has ended, rejects with an OutputError when the output could not be written. */
export async function runRepl({ agent, input, output, files = [], goals = [], prompt = 'ooda> ' }: ReplOptions): Promise<void> {
  const signals$ = new Subject<Signal>();
  let loaded!: () => void;
  const ready = new Promise<void>((resolve) => (loaded = resolve));
  const initial$ = knowledgeAndGoals(files, goals).pipe(finalize(() => loaded()));
  const events$ = agent.run({ inputs: [initial$], signals: [signals$], drive: false });
  let rl: Interface | undefined;
  let outputGone = false;
  let failure: OutputError | undefined;
  output.on('error', (error: Error) => {
    if (outputGone) return;
    outputGone = true;
    if (!readerGone(error)) failure = new OutputError(error);
    agent.stop(failure ? 'stdout failed' : 'stdout closed');
    rl?.close();
  });
  const write = (text: string): void => {
    if (!outputGone) output.write(`${text}\n`);
  };
  events$.subscribe((event) => {
    const text = render(event);
    if (text) write(text);
  });
  const done = lastValueFrom(events$, { defaultValue: undefined });
  events$.connect();

  await ready; // the first prompt comes once the knowledge files and goals are in
  if (outputGone) {
    await done;
    if (failure) throw failure;
    return;
  }
  rl = createInterface({ input, output, prompt, terminal: (output as { isTTY?: boolean }).isTTY === true });
  const meta = { source: 'repl' };
  const send = (signal: Signal): void => signals$.next(signal);
  const command = (name: CommandName): void => send({ type: 'command', command: name, depth: 0, meta });
  let quit = false;
  write("ooda repl: 'h' for help, 'q' to quit");
  rl.prompt();
  rl.on('line', (raw) => {
    const line = raw.trim();
    const [word = '', ...rest] = line.split(/\s+/);
    const arg = line.slice(word.length).trim();
    switch (word.toLowerCase()) {
      case '':
        break;
      case 'g':
      case 'goal':
        if (arg) send({ type: 'goal', description: arg, criteria: '', priority: 128, depth: 0, meta });
        else write('usage: g TEXT');
        break;
      case 's':
      case 'step': {
        const n = rest.length ? Number(rest[0]) : 1;
        if (!Number.isInteger(n) || n < 1 || n > MAX_STEP) {
          write(`usage: s [N] with N a whole number from 1 to ${MAX_STEP}`);
          break;
        }
        if (!agent.mind.goals.hasActive()) write('no active goal: add one with g TEXT');
        for (let i = 0; i < n && agent.mind.goals.hasActive(); i++) send({ type: 'tick', depth: 0, meta });
        break;
      }
      case 'p':
      case 'plan':
        command('plan');
        break;
      case 'r':
      case 'reflect':
        command('reflect');
        break;
      case 'c':
      case 'consolidate':
        command('consolidate');
        break;
      case 'status':
        command('status');
        break;
      case 'h':
      case 'help':
        write(REPL_HELP);
        break;
      case 'q':
      case 'quit':
      case 'exit':
        quit = true;
        rl.close();
        return;
      default:
        write(`unknown command ${JSON.stringify(word)}; 'h' for help`);
    }
    if (!outputGone) rl.prompt();
  });
  // q stops the run with that reason; the end of input (Ctrl-D) ends the signals, and the run stops once idle.
  rl.on('close', () => (quit ? agent.stop('quit') : signals$.complete()));
  await done;
  if (failure) throw failure;
}

/** Commands whose result the REPL leaves out: an event of their own says it (the reflection, the consolidation). */
const SAID_BY_THEIR_EVENT = new Set(['reflect', 'consolidate']);

/** What the REPL prints for an event: a reflection in full, a command's result, other events as one line. */
function render(event: AgentEvent): string | null {
  switch (event.kind) {
    case 'reflection':
      return formatReflection(event);
    case 'command':
      return SAID_BY_THEIR_EVENT.has(event.command) ? null : event.result;
    case 'perceived':
    case 'observation':
    case 'orientation':
      return null;
    default:
      return describe(event);
  }
}
