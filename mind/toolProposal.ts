/**
 * A tool's proposed input. A `propose` that throws is a failure of that tool
 * (a {@link ToolFailure} naming it, transient), never a bug of the cycle: no
 * tool has run yet, so there is nothing to roll back. So is a `propose` that
 * returns a promise (an async function): the input must be there at once.
 * And so is an input that is not JSON (a BigInt, a cycle of references):
 * the decision event, the store and the loop detector all serialise it.
 * The input is a frozen copy (see {@link jsonCopy}): a tool that
 * proposes by updating one object it keeps does not rewrite earlier events.
 */
import { jsonCopy } from './jsonCopy.js';
import { isPromiseMisuse, promiseMisuseMessage } from './promiseMisuse.js';
import { ToolFailure, type ProposalContext, type Tool } from './tool.js';

export function proposeInput(tool: Tool, context: ProposalContext): unknown {
  let input: unknown;
  try {
    input = tool.propose(context);
  } catch (error) {
    throw new ToolFailure(tool.name, `propose failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (isPromiseMisuse(input)) throw new ToolFailure(tool.name, `propose failed: ${promiseMisuseMessage('propose', 'the input')}`);
  const json = jsonCopy(input, true);
  if ('problem' in json) throw new ToolFailure(tool.name, `propose failed: the input must be JSON (it is recorded in the decision event and the store), but ${json.problem}`);
  return json.copy;
}
