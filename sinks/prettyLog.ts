/**
 * toPrettyLog: a human-readable line per interesting event, for people
 * watching the agent in a terminal (`ooda demo`, `ooda run --format pretty`).
 * Perception and orientation detail is left out; decisions show their breakdown.
 * Written through the shared line writer (sinks/lineWriter.ts): a closed pipe
 * (`ooda demo | head`) ends quietly, calling `onClosed` once.
 *
 * Options: as toNdjson's (onClosed, highWaterBytes, maxBufferedBytes).
 */
import type { Writable } from 'node:stream';
import type { AgentEvent } from '../streams/events.js';
import { toLines, type LineSink, type LineSinkOptions } from './lineWriter.js';

export function toPrettyLog(writable: Writable, options: LineSinkOptions = {}): LineSink<AgentEvent> {
  return toLines(
    writable,
    (event) => {
      const line = describe(event);
      return line ? `${String(event.cycle).padStart(4)} │ ${line}` : null;
    },
    options,
  );
}

/** How a plan step's status shows after its tool: done, failed, skipped, next, pending. */
const STEP_MARKS = { Completed: '✓', Failed: '✗', Skipped: '-', Active: '▶', Pending: '·' } as const;

/**
 * One line for an event, or null for events that only add noise in a
 * terminal. Line breaks and control characters in the event's text (a goal's
 * description, an answer) are escaped (`\n`, `\u001b`), so each event stays
 * one line and text cannot drive the terminal.
 */
export function describe(event: AgentEvent): string | null {
  const line = text(event);
  return line === null ? null : line.replace(UNPRINTABLE, escape);
}

/** C0 and C1 controls but the tab, and the Unicode line and paragraph separators. */
const UNPRINTABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

function escape(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function text(event: AgentEvent): string | null {
  switch (event.kind) {
    case 'session':
      return `session ${event.state}${event.reason ? ` (${event.reason})` : ''}`;
    case 'goal':
      return `goal ${event.goalId} ${event.change} → ${event.status} p${event.priority}${event.parentId ? ` (child of ${event.parentId})` : ''}: ${event.description}`;
    case 'decision':
      return `decide ${event.goalId}: ${event.tool} ${event.breakdown}${event.impasse ? ` impasse: ${event.impasse}` : ''}`;
    case 'action':
      return `act    ${event.goalId}: ${event.tool} ${event.status} (${event.progress}) ${event.summary}`;
    case 'rejected':
      return `rejected ${event.source}${event.line ? `:${event.line}` : ''}: ${event.reason}`;
    case 'error':
      return `error (${event.severity}${event.rolledBack ? ', rolled back' : ''}): ${event.message}`;
    case 'consolidation':
      return `consolidated ${event.freed} entries into ${event.episodes} episode(s): ${event.reason}`;
    case 'plan':
      return `plan   ${event.goalId}: ${event.planId} ${event.change} → ${event.status} (attempt ${event.attempt}, ${event.strategy}, ${event.order}) [${event.steps.map((st) => `${st.tool}${STEP_MARKS[st.status]}`).join(' ')}] ${event.reason}`;
    case 'reflection':
      return `reflection ${event.number} (${event.trigger}, ${event.cycles} cycle(s)): ${event.adjustments.map((a) => ('goalId' in a ? `${a.kind} ${a.goalId}` : a.kind)).join(', ') || 'no adjustments'}${event.psyche ? `; dominant ${event.psyche.dominant}` : ''}`;
    case 'loop':
    case 'intervention':
      return `${event.kind} ${JSON.stringify(Object.fromEntries(Object.entries(event).filter(([k]) => !['kind', 'seq', 'session', 'cycle', 'at'].includes(k)))).slice(0, 200)}`;
    case 'command':
      return `command ${event.command}: ${event.result}`;
    case 'question':
      return `question ${event.questionId}${event.status && event.status !== 'asked' ? ` ${event.status}` : ''}: ${event.text}${event.answer === undefined ? '' : ` → ${event.answer}`}`;
    case 'warning':
      return `warning: ${event.message}`;
    default:
      return null;
  }
}
