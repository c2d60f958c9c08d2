/**
 * A CLI command, declared once: its flag table is both what its parser accepts
 * and what its `--help` lists, so the help cannot offer a flag the command
 * refuses, nor omit one it takes.
 */
import { parseFlags, type FlagValues } from './cli.js';
import { flagsUsage, type Flags } from './flags.js';

export interface Command {
  /** One line for `ooda --help`. */
  summary: string;
  /** The flags the command accepts. */
  flags: Flags;
  /** Flags of related commands this one does not take, each with what to do instead (said when one is given). */
  refused?: Readonly<Record<string, string>>;
  /** The full usage text for `ooda COMMAND --help`, derived from `flags`. */
  usage: string;
  run(argv: string[]): Promise<number>;
}

export interface CommandSpec<F extends Flags> {
  summary: string;
  /** The usage line and what the command does, printed above the options. */
  about: string;
  flags: F;
  /** See {@link Command.refused}. */
  refused?: Readonly<Record<string, string>>;
  /** Printed after the options (e.g. the exit codes). */
  footer?: string;
  /** Runs with the parsed flags; resolves with the exit code. */
  run(values: FlagValues<F>): Promise<number>;
}

/** Builds a command whose parser and help both come from `spec.flags`. */
export function defineCommand<const F extends Flags>(spec: CommandSpec<F>): Command {
  return {
    summary: spec.summary,
    flags: spec.flags,
    ...(spec.refused ? { refused: spec.refused } : {}),
    usage: `${spec.about}\n\noptions:\n${flagsUsage(spec.flags)}${spec.footer ? `\n\n${spec.footer}` : ''}`,
    run: async (argv) => spec.run(parseFlags(argv, spec.flags)),
  };
}
