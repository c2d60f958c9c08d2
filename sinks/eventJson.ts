/**
 * eventJson: the JSON text of an event, made once however many sinks write it.
 *
 * A shared event stream hands each event to every sink (NDJSON on stdout, the
 * SQLite store, the WebSocket server) one after another before the next event
 * comes, and each of them needs the same text. The last event's text is kept,
 * so the second and third sink reuse the first one's `JSON.stringify` instead
 * of repeating it (serialising is the largest per-event cost of a persisted
 * run). One slot is enough: a lookup is an identity check, and an event that
 * is not the last one is simply serialised again.
 *
 * An event that has no JSON form (a custom stage recorded a BigInt or a
 * circular value in it) is written as a critical `error` event with its
 * `seq`, naming its kind and why, the same text for every sink and for
 * replay's comparison; before, the exception killed the process.
 *
 * So is an event nested deeper than {@link MAX_JSON_NESTING} levels (a
 * custom tool's input, say): the store writes rows through SQLite's JSON
 * functions, which refuse text nested past 1000 levels, and one such event
 * failed its whole batch, every write after it and the run's exit.
 *
 * Events are not changed once emitted; a sink that did change one after it
 * was serialised would not see its change written by the sinks after it.
 */
import { MAX_JSON_NESTING, nestsDeeperThan } from './jsonStructure.js';

let lastEvent: object | undefined;
let lastText = '';

export function eventJson(event: object): string {
  if (event !== lastEvent) {
    lastText = serialise(event);
    lastEvent = event;
  }
  return lastText;
}

function serialise(event: object): string {
  let text: string;
  try {
    text = JSON.stringify(event);
  } catch (error) {
    // The first line only: V8 explains a circular structure over several.
    return standIn(event, `had no JSON form (${String((error as Error).message).split('\n')[0]})`);
  }
  return nestsDeeperThan(text, MAX_JSON_NESTING) ? standIn(event, `nested more than ${MAX_JSON_NESTING} levels deep (objects and arrays within one another), more than the store can hold`) : text;
}

/** The critical error event written in place of one that cannot be written as it is. */
function standIn(event: object, why: string): string {
  const { kind, seq, session, cycle, at } = event as { kind?: unknown; seq?: unknown; session?: unknown; cycle?: unknown; at?: unknown };
  const what = typeof kind === 'string' ? `a ${kind} event` : 'an event';
  return JSON.stringify({
    kind: 'error',
    seq,
    session,
    cycle,
    at,
    severity: 'critical',
    message: `${what} ${why}: this error stands for it wherever events are written`,
    rolledBack: false,
  });
}
