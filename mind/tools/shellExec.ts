/**
 * shell_exec (semantic, dangerous): runs a program with an argument array —
 * never through a shell, so nothing is expanded or chained. Refused unless
 * `tools.shellExec` is true. After `tools.shellTimeoutMs` (5 s) of the
 * runtime's scheduler time (`ToolContext.timeout`), or when act gives up on
 * the run (`toolTimeoutMs`, the run stopping), the program and every process
 * it started are killed (see programRun.ts; not a process that starts its
 * own session or group, e.g. through `setsid`: that one runs on). The exit
 * code is part of the output; stdout is the content goals are checked
 * against. A program that writes more than 1 MiB to stdout or stderr is
 * stopped the same way, and the result says so.
 */
import { z } from 'zod';
import { command as commandIn } from '../goalText.js';
import { ToolFailure, type Tool, type ToolOutput } from '../tool.js';
import { runProgram, type ProgramResult } from './programRun.js';

const Input = z.object({
  command: z.string().min(1, 'command is required'),
  args: z.array(z.string()).default([]),
});

/** Characters of stdout/stderr kept in the summary and content. */
export const OUTPUT_CHARS = 4_000;

/** Bytes read from each of stdout and stderr; a program that writes more is stopped. */
export const OUTPUT_MAX_BYTES = 1_048_576;

export const shellExec: Tool<z.infer<typeof Input>> = {
  name: 'shell_exec',
  description: 'Run a program with arguments (no shell), with a timeout; off unless tools.shellExec is enabled.',
  keywords: [
    'shell', 'command', 'run', 'execute', 'terminal', 'script', 'program', 'process', 'bash', 'cli', 'invoke',
    'launch', 'system', 'exit', 'code', 'stdout', 'binary', 'tool', 'compile', 'build',
  ],
  danger: 'dangerous',
  capabilities: ['process.spawn'],
  input: Input,
  scoring: { kind: 'semantic', threshold: 0.55, multiplier: 0.75 },
  propose({ goal }) {
    const [command = '', ...args] = commandIn(goal) ?? [];
    return { command, args };
  },
  execute({ command, args }, { config, timeout, effect }) {
    if (!config.tools.shellExec) throw new ToolFailure('shell_exec', 'refused: running commands is disabled (set tools.shellExec to true to allow it)');
    const { shellTimeoutMs } = config.tools;
    const line = [command, ...args].join(' ');
    const run = effect(`run ${line}`, () => runProgram(command, args, { signal: timeout(shellTimeoutMs), maxBytes: OUTPUT_MAX_BYTES }));
    return reported(command, line, shellTimeoutMs, run);
  },
};

/**
 * How the program's run (a recorded effect: a replay gets how the recorded
 * run ended and runs nothing) ended, as the tool's output; only a program
 * that cannot be started is a failure.
 */
async function reported(command: string, line: string, timeoutMs: number, running: Promise<ProgramResult>): Promise<ToolOutput> {
  let run: ProgramResult;
  try {
    run = await running;
  } catch (error) {
    if (error instanceof ToolFailure) throw error;
    throw new ToolFailure('shell_exec', `cannot run ${command}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  const { exitCode, stdout, stderr, stopped } = run;
  const timedOut = stopped === 'timeout';
  const summary = `${line} ${howItEnded(run, timeoutMs)}`;
  return {
    ok: exitCode === 0,
    summary,
    content: stdout.slice(0, OUTPUT_CHARS),
    data: { exitCode, timedOut, stdout: stdout.slice(0, OUTPUT_CHARS), stderr: stderr.slice(0, OUTPUT_CHARS), ...(stopped === 'stdout' || stopped === 'stderr' ? { cut: stopped } : {}) },
  };
}

/** How the run ended, as the summary says it after the command line. */
function howItEnded({ exitCode, stderr, stopped }: ProgramResult, timeoutMs: number): string {
  if (stopped === 'timeout') return `timed out after ${timeoutMs} ms`;
  if (stopped === 'aborted') return 'stopped: its run was given up on';
  if (stopped) return `stopped: more than ${OUTPUT_MAX_BYTES} bytes on ${stopped}`;
  return `exited with code ${exitCode}${stderr ? `: ${stderr.trim().slice(0, 200)}` : ''}`;
}
