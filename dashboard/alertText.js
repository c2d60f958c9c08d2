// An alert's one line: rejected input, errors, warnings, loops and interventions.
import { isolated } from './dom.js';

// An event's header fields, left out where an alert lists its fields.
const HEADER_KEYS = new Set(['kind', 'seq', 'session', 'cycle', 'at']);

/**
 * One line for an alert, as strings and nodes: rejected input as
 * `source:line: reason` (as the pretty log), else its sentence if it has one
 * (an error's message, a loop's details, an intervention's narrative), else
 * its fields. What the agent wrote is isolated as its own bidirectional run,
 * and in it the description of each goal the alert names (`goals`: the page's
 * goals by id): a right-to-left override (U+202E) in a description would
 * otherwise reverse the rest of the sentence after it.
 */
export function alertText(event, goals) {
  if (event.kind === 'rejected') return [`${event.source}${event.line ? `:${event.line}` : ''}: `, isolated(event.reason)];
  const text = event.message ?? event.reason ?? event.details ?? event.narrative ?? event.description ?? event.summary;
  if (typeof text === 'string') {
    const descriptions = [event.goalId, event.suspendedGoalId].map((goalId) => goals.get(goalId)?.description);
    const sentence = isolated(...isolatedWithin(text, descriptions));
    return event.goalId ? [`${event.goalId}: `, sentence] : [sentence];
  }
  return [isolated(Object.entries(event)
    .filter(([key]) => !HEADER_KEYS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`)
    .join(' '))];
}

/** `text` as strings and nodes, each occurrence of the `fragments` in it (those not empty) isolated. */
function isolatedWithin(text, fragments) {
  let parts = [text];
  for (const fragment of fragments) {
    if (!fragment) continue;
    parts = parts.flatMap((part) => (typeof part === 'string' ? part.split(fragment).flatMap((piece, i) => (i ? [isolated(fragment), piece] : [piece])) : [part]));
  }
  return parts.filter((part) => part !== '');
}
