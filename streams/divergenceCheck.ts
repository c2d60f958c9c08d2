/**
 * Comparing a replay with its recording: the first event where they differ
 * (a {@link Divergence}), read a page of recorded events at a time
 * ({@link DivergenceCheck}), and the tools a recorded event names that the
 * replaying agent lacks.
 */
import type { EventRow } from '../sinks/storeSchema.js';
import { eventJson } from '../sinks/eventJson.js';
import type { AgentEvent } from './events.js';
import { eventFromRow } from './storedState.js';

/** Where a replay first differs from the recording. */
export interface Divergence {
  seq: number;
  expected: string;
  got: string;
  /** Tools the recorded event names that the replaying agent does not have (tools of your own not passed to the replay). */
  unknownTools?: string[];
}

/** The `tool` values anywhere in a recorded event's JSON that `has` does not know, in order, once each. */
export function unknownTools(json: string, has: (tool: string) => boolean): string[] {
  const found = new Set<string>();
  JSON.parse(json, (key, value: unknown) => {
    if (key === 'tool' && typeof value === 'string' && !has(value)) found.add(value);
    return value;
  });
  return [...found];
}

/**
 * Compares replayed events with recorded ones, which it reads a page at a
 * time: the first place they differ, or nothing. A replayed event is compared
 * at once when its recorded one has been read, else kept (as JSON) until
 * {@link settle} reads the next page; neither side is kept past its
 * comparison. A recording cut short by a crash (`complete` false) is compared
 * up to its last stored event; replaying fewer events than were recorded is
 * a divergence either way.
 */
export class DivergenceCheck {
  private readonly pages: AsyncIterator<readonly EventRow[]>;
  private rows: readonly EventRow[] = [];
  private next = 0;
  /** Whether every recorded page has been read. */
  private read = false;
  private readonly waiting: { seq: number; json: string }[] = [];
  private found: Divergence | undefined;
  private matched = 0;

  constructor(
    recorded: AsyncIterable<readonly EventRow[]>,
    private readonly complete: boolean,
  ) {
    this.pages = recorded[Symbol.asyncIterator]();
  }

  /** Recorded events compared so far. */
  get compared(): number {
    return this.matched;
  }

  /** Takes the next replayed event: compared now if its recorded one has been read, else at the next {@link settle}. */
  push(replayed: AgentEvent): void {
    if (this.found) return;
    // As the sinks wrote it: an event with no JSON form was stored as the error standing for it.
    const event = { seq: replayed.seq, json: eventJson(replayed) };
    if (this.waiting.length === 0 && (this.next < this.rows.length || this.read)) this.compare(event);
    else this.waiting.push(event);
  }

  /** Compares the replayed events kept so far, reading recorded pages as they need. */
  async settle(): Promise<void> {
    for (const event of this.waiting) {
      if (this.found) break;
      await this.fill();
      this.compare(event);
    }
    this.waiting.length = 0;
  }

  /** The first divergence, once the replay has ended. */
  async result(): Promise<Divergence | undefined> {
    await this.settle();
    if (this.found) return this.found;
    await this.fill();
    const missing = this.rows[this.next];
    return missing ? { seq: missing.seq, expected: JSON.stringify(eventFromRow(missing)), got: NO_EVENT } : undefined;
  }

  /** Compares a replayed event with the next recorded one, if any has been read (past the last one, with nothing). */
  private compare(event: { seq: number; json: string }): void {
    const row = this.rows[this.next];
    if (row) this.next++, this.matched++;
    else if (!this.complete) return;
    const expected = row ? JSON.stringify(eventFromRow(row)) : NO_EVENT;
    if (expected === event.json) return;
    // Seqs out of step: the recording lacks the replayed seq (an event deleted), or has one the replay did not make there.
    if (row && row.seq > event.seq) this.found = { seq: event.seq, expected: NO_EVENT, got: event.json };
    else if (row && row.seq < event.seq) this.found = { seq: row.seq, expected, got: NO_EVENT };
    else this.found = { seq: row?.seq ?? event.seq, expected, got: event.json };
  }

  /** Reads recorded pages until one has a row left to compare, or every page has been read. */
  private async fill(): Promise<void> {
    while (this.next === this.rows.length && !this.read) {
      const page = await this.pages.next();
      this.rows = page.done ? [] : page.value;
      this.next = 0;
      this.read = page.done === true;
    }
  }
}

/** What a divergence says was replayed (or recorded) where the other side has an event. */
export const NO_EVENT = '(no event)';
