/**
 * Pieces of a goal's wording that tools propose inputs from: quoted text,
 * the text after a colon, a file path, a URL, a backticked command.
 */
import { goalText, type Goal } from './goals.js';

/** Text in quotes ("…", '…', “…”), joined; else the text after the first colon; else undefined. */
export function quotedText(goal: Goal): string | undefined {
  const text = goalText(goal);
  const quoted = [...text.matchAll(/"([^"]+)"|“([^”]+)”|'([^']{3,})'/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  if (quoted.length > 0) return quoted.join(' ');
  const colon = goal.description.indexOf(':');
  return colon >= 0 && colon < goal.description.length - 1 ? goal.description.slice(colon + 1).trim() : undefined;
}

/** The first relative file path in the goal (a word with an extension, optionally with folders). */
export function filePath(goal: Goal): string | undefined {
  return /(?:^|\s)((?:[\w-]+\/)*[\w-]+\.[A-Za-z0-9]{1,6})(?=[\s,;:!?)]|\.?$)/.exec(goalText(goal))?.[1];
}

/** The first http(s) URL in the goal. */
export function url(goal: Goal): string | undefined {
  return /https?:\/\/[^\s"'<>]+/.exec(goalText(goal))?.[0]?.replace(/[.,;:!?)]+$/, '');
}

/** The first backticked command in the goal, split into words. */
export function command(goal: Goal): string[] | undefined {
  const m = /`([^`]+)`/.exec(goalText(goal));
  return m ? m[1]!.trim().split(/\s+/) : undefined;
}
