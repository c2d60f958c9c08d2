/**
 * An action's input as the text the shadow's veto patterns and the policy
 * skill match against: lower-cased, whitespace collapsed.
 *
 * A string input is its own text. Any other input gives two lines:
 * - its JSON, for patterns on structure (`"op": "delete"`);
 * - its values in order, joined with spaces: what the action reads as, so
 *   shell_exec's `{ command: 'rm', args: ['-rf', 'victim'] }` is `rm -rf victim`
 *   and a pattern on a command line sees the command line, not JSON
 *   punctuation between its words.
 *
 * The text is made from the input as it is now, at every check (each check
 * makes it once for all its patterns): an input object may be changed and
 * proposed again (a tool that updates one object), and a text kept for the
 * object would let its new command past the veto.
 */

export function actionText(input: unknown): string {
  if (typeof input === 'string') return normalise(input);
  if (typeof input !== 'object' || input === null) return normalise(JSON.stringify(input) ?? '');
  const values: string[] = [];
  collectValues(input, values);
  return `${normalise(JSON.stringify(input) ?? '')}\n${normalise(values.join(' '))}`;
}

export function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** The strings, numbers and booleans inside a value, depth first, in order. */
function collectValues(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectValues(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) collectValues(item, into);
}
