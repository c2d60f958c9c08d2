/**
 * shell_exec (semantic, dangerous): runs a program with an argument array —
 * never through a shell, so nothing is expanded or chained. Refused unless
 * `tools.shellExec` is true. Killed after `tools.shellTimeoutMs` (5 s); this
 * tool does real I/O, so it uses Node's own timeout (execFile's `timeout`).
 * The exit code is part of the output; stdout is the content goals are checked
 * against. Output is capped at 1 MiB per stream.
 */
import { execFile } from 'node:child_process';
import { z } from 'zod';
import { command as commandIn } from '../goalText.js';
import { notRerun, ToolFailure, type Tool } from '../tool.js';

const Input = z.object({
  command: z.string().min(1, 'command is required'),
  args: z.array(z.string()).default([]),
});

/** Characters of stdout/stderr kept in the summary and content. */
export const OUTPUT_CHARS = 4_000;

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
  execute({ command, args }, { config, replaying }) {
    if (!config.tools.shellExec) throw new ToolFailure('shell_exec', 'refused: running commands is disabled (set tools.shellExec to true to allow it)');
    if (replaying) throw notRerun('shell_exec', `run ${[command, ...args].join(' ')}`);
    const timeoutMs = config.tools.shellTimeoutMs;
    return new Promise((resolve, reject) => {
      execFile(command, args, { shell: false, timeout: timeoutMs, maxBuffer: 1_048_576, encoding: 'utf8' }, (error, stdout, stderr) => {
        const spawnError = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        if (spawnError && typeof spawnError.code === 'string') {
          reject(new ToolFailure('shell_exec', `cannot run ${command}: ${spawnError.code}`, { cause: error }));
          return;
        }
        const timedOut = spawnError?.killed === true;
        const exitCode = spawnError ? (typeof spawnError.code === 'number' ? spawnError.code : null) : 0;
        const line = [command, ...args].join(' ');
        resolve({
          ok: exitCode === 0,
          summary: timedOut ? `${line} timed out after ${timeoutMs} ms` : `${line} exited with code ${exitCode}${stderr ? `: ${stderr.trim().slice(0, 200)}` : ''}`,
          content: stdout.slice(0, OUTPUT_CHARS),
          data: { exitCode, timedOut, stdout: stdout.slice(0, OUTPUT_CHARS), stderr: stderr.slice(0, OUTPUT_CHARS) },
        });
      });
    });
  },
};
