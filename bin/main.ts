/**
 * The `ooda` command (loaded by bin/ooda.ts): dispatches to a subcommand and
 * turns its result into an exit code. `ooda COMMAND --help` (or -h, or `ooda help COMMAND`) prints the command's usage, for every
 * command alike. Usage errors name the problem and exit 2.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, OutputError, packageRoot, StoreError } from '../streams/index.js';
import { UsageError } from './cli.js';
import type { Command } from './command.js';
import { closestFlag } from './flags.js';
import { COMMANDS } from './commands/index.js';
import { printLines } from './output.js';
import { exitOnSignals } from './signalExit.js';

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: ooda COMMAND [options]\n\ncommands:\n${lines.join('\n')}\n\n'ooda COMMAND --help' shows a command's options; 'ooda --version' the version.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // `ooda help run` is `ooda run --help`.
    const topic = rest[0];
    if (topic !== undefined) {
      const about = COMMANDS[topic];
      if (!about) throw new UsageError(`unknown command ${JSON.stringify(topic)} (try 'ooda --help')`);
      await printLines([about.usage]);
      return 0;
    }
    await printLines([help()]);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
    await printLines([`ooda-rx ${pkg.version}`]);
    return 0;
  }
  const command: Command | undefined = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)} (try 'ooda --help')`);
  if (rest.includes('--help') || rest.includes('-h')) {
    await printLines([command.usage]);
    return 0;
  }
  // From here a signal no longer comes before the command started (a run's hands it over as it starts: lifecycle.ts).
  exitOnSignals(`while ooda ${name} ran`);
  return command.run(rest).catch((error: unknown) => {
    if (error instanceof UsageError && error.message.startsWith('Unknown option')) {
      const given = /^Unknown option '--([^'=]+)/.exec(error.message)?.[1];
      const instead = given === undefined ? undefined : command.refused?.[given];
      if (instead) throw new UsageError(`--${given}: ooda ${name} does not take it: ${instead}`);
      const meant = given === undefined ? undefined : closestFlag(given, command.flags);
      throw new UsageError(`${error.message}${meant ? ` (did you mean --${meant}?)` : ''}: 'ooda ${name} --help' lists the options it accepts`);
    }
    throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`ooda: ${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof StoreError || error instanceof OutputError) {
      process.stderr.write(`ooda: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`ooda: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
