/**
 * toNdjson: writes each event as one JSON line (the text the other sinks
 * share, see sinks/eventJson.ts), through the shared line writer
 * (sinks/lineWriter.ts): batched, flushed on completion, and a closed pipe
 * (`ooda run | head`) ends quietly, calling `onClosed` once; `saturated$`
 * says when a slow reader has left `maxBufferedBytes` unwritten.
 *
 * Options: onClosed (called when the destination goes away), highWaterBytes (64 KiB),
 * maxBufferedBytes (8 MiB).
 */
import type { Writable } from 'node:stream';
import { eventJson } from './eventJson.js';
import { toLines, type LineSink, type LineSinkOptions } from './lineWriter.js';

export type NdjsonSinkOptions = LineSinkOptions;
export type NdjsonSink = LineSink<unknown>;

export function toNdjson(writable: Writable, options: NdjsonSinkOptions = {}): NdjsonSink {
  return toLines(writable, (value) => (typeof value === 'object' && value !== null ? eventJson(value) : JSON.stringify(value)), options);
}
