/**
 * Loading a mind extension's saved state. An extension validates what it is
 * given (a snapshot may come from another version of it) and throws when it
 * cannot take it; the error then names the extension and the problem, not
 * only the validator's own words (a ZodError's message is its issues as JSON):
 * `mind extension "notes" cannot load its saved state: v: Invalid input:
 * expected 2`.
 */
import type { MindExtension } from './mind.js';

/** Calls `extension.load(json)`; an error it throws is rethrown naming the extension (the original is its `cause`). */
export function loadExtension(extension: MindExtension, json: unknown): void {
  try {
    extension.load(json);
  } catch (error) {
    throw new Error(`mind extension ${JSON.stringify(extension.name)} cannot load its saved state: ${problemOf(error)}`, { cause: error });
  }
}

/** An error's message; for a validation error with `issues` (zod), its first issue as `path: message`. */
function problemOf(error: unknown): string {
  const issues: unknown = (error as { issues?: unknown } | null)?.issues;
  const first = Array.isArray(issues) ? (issues[0] as { path?: unknown; message?: unknown } | undefined) : undefined;
  if (Array.isArray(issues) && first && typeof first.message === 'string') {
    const path = Array.isArray(first.path) && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue(s))` : '';
    return `${path}${first.message}${more}`;
  }
  return error instanceof Error ? error.message : String(error);
}
