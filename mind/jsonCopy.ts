/**
 * A value as JSON holds it, as every event is written (stdout, the store, the
 * dashboard): a BigInt anywhere in it, or a cycle of references, makes
 * `JSON.stringify` throw, far from where the value came from; so a tool's or
 * a skill's input is checked, and copied, where it is proposed.
 */

/**
 * A frozen deep copy of `value` as JSON holds it (`JSON.parse(JSON.stringify(value))`,
 * undefined for undefined), or why it has none (`it holds a BigInt`, `it refers
 * to itself`). What a decision records as its input: whoever still holds the
 * original (the tool that proposed it, reusing one object; a skill) cannot
 * change recorded events by changing it, and nobody can change the copy.
 */
export function frozenJsonCopy(value: unknown): { copy: unknown } | { problem: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (error instanceof TypeError && /BigInt/i.test(error.message)) return { problem: 'it holds a BigInt' };
    if (error instanceof TypeError && /circular/i.test(error.message)) return { problem: 'it refers to itself (a circular structure)' };
    return { problem: `JSON.stringify failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { copy: text === undefined ? undefined : JSON.parse(text, freeze) };
}

function freeze(_key: string, value: unknown): unknown {
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}
