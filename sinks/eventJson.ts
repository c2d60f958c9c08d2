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
 * So is an event nested deeper than {@link MAX_EVENT_NESTING} levels (a
 * custom tool's input, say): the store writes rows through SQLite's JSON
 * functions, which refuse text nested past 1000 levels, and one such event
 * failed its whole batch, every write after it and the run's exit.
 *
 * Events are not changed once emitted; a sink that did change one after it
 * was serialised would not see its change written by the sinks after it.
 */
let lastEvent: object | undefined;
let lastText = '';

export function eventJson(event: object): string {
  if (event !== lastEvent) {
    lastText = serialise(event);
    lastEvent = event;
  }
  return lastText;
}

/** The most levels of objects and arrays within one another an event may have (SQLite's JSON functions take 1000, with the batch's own level). */
export const MAX_EVENT_NESTING = 900;

function serialise(event: object): string {
  let text: string;
  try {
    text = JSON.stringify(event);
  } catch (error) {
    // The first line only: V8 explains a circular structure over several.
    return standIn(event, `had no JSON form (${String((error as Error).message).split('\n')[0]})`);
  }
  return nestsDeeperThan(text, MAX_EVENT_NESTING) ? standIn(event, `nested more than ${MAX_EVENT_NESTING} levels deep (objects and arrays within one another), more than the store can hold`) : text;
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

/**
 * Whether JSON text nests objects and arrays more than `levels` deep. Each
 * level takes two characters at least (`[` and `]`), so a text shorter than
 * twice that is not read at all: only a long event pays for the scan.
 */
function nestsDeeperThan(text: string, levels: number): boolean {
  if (text.length <= 2 * levels) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > levels) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
