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

function serialise(event: object): string {
  try {
    return JSON.stringify(event);
  } catch (error) {
    const { kind, seq, session, cycle, at } = event as { kind?: unknown; seq?: unknown; session?: unknown; cycle?: unknown; at?: unknown };
    const what = typeof kind === 'string' ? `a ${kind} event` : 'an event';
    return JSON.stringify({
      kind: 'error',
      seq,
      session,
      cycle,
      at,
      severity: 'critical',
      // The first line only: V8 explains a circular structure over several.
      message: `${what} had no JSON form (${String((error as Error).message).split('\n')[0]}): this error stands for it wherever events are written`,
      rolledBack: false,
    });
  }
}
