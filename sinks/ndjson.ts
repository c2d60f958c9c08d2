/**
 * toNdjson: writes each event as one JSON line (the text the other sinks
 * share, see sinks/eventJson.ts), through the shared line writer
 * (sinks/lineWriter.ts): batched, flushed on completion, and a closed pipe
 * (`ooda run | head`) ends quietly, calling `onClosed` once.
 *
 * Options: onClosed (called when the destination goes away), highWaterBytes (64 KiB).
 */
import type { Writable } from 'node:stream';
import { eventJson } from './eventJson.js';
import { toLines, type LineSink, type LineSinkOptions } from './lineWriter.js';

export type NdjsonSinkOptions = LineSinkOptions;
export type NdjsonSink = LineSink<unknown>;

export function toNdjson(writable: Writable, options: NdjsonSinkOptions = {}): NdjsonSink {
  return toLines(writable, (value) => (typeof value === 'object' && value !== null ? eventJson(value) : JSON.stringify(value)), options);
}
