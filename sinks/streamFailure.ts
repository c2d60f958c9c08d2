/**
 * What a sink says when the event stream it listens to errors. The agent's
 * stream never errors by design (errors are events), so this is a bug report:
 * the sink flushes what it has and names the failure on stderr.
 */
export function streamFailure(error: unknown): string {
  return `event stream failed: ${error instanceof Error ? error.message : String(error)}`;
}
