/**
 * Flag tables: a command declares each flag it accepts once, with the help
 * line that says what it does and its default. The parser and the `--help`
 * text are both derived from the table (see command.ts), so the help lists
 * exactly the flags the command accepts.
 */

export interface Flag {
  type: 'string' | 'boolean';
  /** May be given more than once (its values are collected); any other flag is refused when repeated. */
  multiple?: boolean;
  /** The value's name in the help (`--max-cycles N`); string flags only. */
  arg?: string;
  /** What the flag does, with its default; a newline starts a continuation line. */
  help: string;
  /** Other names it is taken under (`goals` for `goal`: seed 001's spelling); the help line names them. */
  aliases?: readonly string[];
}

export type Flags = Readonly<Record<string, Flag>>;

/** Width of the flag column in the help (wider flags push their text right). */
const COLUMN = 18;

/** The options section of a command's help: one line per flag, in table order, then `-h, --help`. */
export function flagsUsage(flags: Flags): string {
  const rows: [string, string][] = Object.entries(flags).map(([name, flag]) => [
    `--${name}${flag.arg ? ` ${flag.arg}` : ''}`,
    flag.aliases ? flag.help.replace(/\n|$/, (end) => `; also ${flag.aliases!.map((alias) => `--${alias}`).join(', ')}${end}`) : flag.help,
  ]);
  rows.push(['-h, --help', 'this help']);
  return rows
    .map(([left, help]) => {
      const [first, ...rest] = help.split('\n');
      const width = Math.max(COLUMN, left.length);
      return [`  ${left.padEnd(width)}  ${first}`, ...rest.map((line) => `  ${' '.repeat(width)}  ${line}`)].join('\n');
    })
    .join('\n');
}

/** What a repeated flag looks like to {@link repeatedFlagProblem}: parseArgs' option tokens. */
export interface FlagUse {
  name: string;
  value?: string | undefined;
}

/**
 * Why the command line repeats a flag the table does not mark `multiple`
 * (`--kind: given twice (decision, action); it takes one value`), or undefined
 * when none is: parseArgs would keep only the last value, silently.
 */
export function repeatedFlagProblem(uses: readonly FlagUse[], flags: Readonly<Record<string, Pick<Flag, 'type' | 'multiple'>>>): string | undefined {
  for (const [name, flag] of Object.entries(flags)) {
    if (flag.multiple) continue;
    const given = uses.filter((use) => use.name === name);
    if (given.length < 2) continue;
    const times = given.length === 2 ? 'twice' : `${given.length} times`;
    return flag.type === 'string'
      ? `--${name}: given ${times} (${given.map((use) => JSON.stringify(use.value)).join(', ')}); it takes one value`
      : `--${name}: given ${times}; give it once`;
  }
  return undefined;
}

/** `argv` with every flag given under an alias (`--goals x`, `--goals=x`) given under its own name instead. */
export function withCanonicalNames(argv: readonly string[], flags: Readonly<Record<string, object>>): string[] {
  const canonical = new Map(Object.entries(flags).flatMap(([name, flag]) => ((flag as Pick<Flag, 'aliases'>).aliases ?? []).map((alias): [string, string] => [alias, name])));
  if (canonical.size === 0) return [...argv];
  return argv.map((arg) => {
    const match = /^--([^=]+)(=.*)?$/s.exec(arg);
    const name = match && canonical.get(match[1]!);
    return name ? `--${name}${match[2] ?? ''}` : arg;
  });
}

/** The table without the named flags (a command that accepts all of another's flags but these). */
export function withoutFlags<F extends Flags, K extends keyof F>(flags: F, ...names: K[]): Omit<F, K> {
  return Object.fromEntries(Object.entries(flags).filter(([name]) => !names.includes(name as K))) as Omit<F, K>;
}

/**
 * The flag of the table a mistyped `--name` most likely meant: the one within
 * two edits (insertions, deletions, substitutions) of it, the nearest first,
 * whose edits leave more than 40 % of the longer name as it was; undefined
 * when none is that close. `--goals` → `goal`, `--max-cycle` → `max-cycles`,
 * `--kb` → `kg`; but `--id` or `--tag` is not taken for `--kg` (two edits
 * of two or three letters change all or most of it).
 */
export function closestFlag(name: string, flags: Flags): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of Object.keys(flags)) {
    const distance = editDistance(name, candidate, bestDistance);
    const similarity = 1 - distance / Math.max(name.length, candidate.length);
    if (distance < bestDistance && similarity > 0.4) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance of `a` and `b`, or `limit` once it is sure to reach it. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) >= limit) return limit;
    previous = row;
  }
  return Math.min(previous[b.length]!, limit);
}
