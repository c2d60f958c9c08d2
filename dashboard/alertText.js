// An alert's one line of text: rejected input, errors, warnings, loops and interventions.

// An event's header fields, left out where an alert lists its fields.
const HEADER_KEYS = new Set(['kind', 'seq', 'session', 'cycle', 'at']);

/**
 * One line for an alert: rejected input as `source:line: reason` (as the
 * pretty log), else its sentence if it has one (an error's message, a loop's
 * details, an intervention's narrative), else its fields.
 */
export function alertText(event) {
  if (event.kind === 'rejected') return `${event.source}${event.line ? `:${event.line}` : ''}: ${event.reason}`;
  const text = event.message ?? event.reason ?? event.details ?? event.narrative ?? event.description ?? event.summary;
  if (typeof text === 'string') return event.goalId ? `${event.goalId}: ${text}` : text;
  return Object.entries(event)
    .filter(([key]) => !HEADER_KEYS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`)
    .join(' ');
}
