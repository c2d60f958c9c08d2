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
 * Events are not changed once emitted; a sink that did change one after it
 * was serialised would not see its change written by the sinks after it.
 */
let lastEvent: object | undefined;
let lastText = '';

export function eventJson(event: object): string {
  if (event !== lastEvent) {
    lastText = JSON.stringify(event);
    lastEvent = event;
  }
  return lastText;
}
