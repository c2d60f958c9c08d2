/**
 * The check of `KnowledgeGraph.add`'s arguments, made before anything is
 * added: a tool adds triples through `ctx.mind.graph.add`, and a part that is
 * no string, or a confidence outside [0, 1] (a percentage such as 90, NaN),
 * made a triple the saved graph's schema refuses, so no resume could load a
 * snapshot taken after it.
 */
import { describeValue } from './describeValue.js';

/** Why `add`'s arguments make no triple the saved graph takes (a part that is no string, a confidence outside [0, 1]), or undefined. */
export function tripleProblem(subject: unknown, predicate: unknown, object: unknown, confidence: unknown): string | undefined {
  // Plain checks, no allocation: add is on the ingest path.
  if (typeof subject !== 'string') return `subject must be a string (got ${describeValue(subject)})`;
  if (typeof predicate !== 'string') return `predicate must be a string (got ${describeValue(predicate)})`;
  if (typeof object !== 'string') return `object must be a string (got ${describeValue(object)})`;
  if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) return `confidence must be a number from 0 to 1 (got ${describeValue(confidence)})`;
  return undefined;
}
