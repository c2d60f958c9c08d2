/**
 * `ooda sessions`: lists the store's sessions, oldest first, as a table (or
 * NDJSON with --json, each line with the session's config too); a store with
 * none prints nothing, and says so on stderr.
 */
import stringWidth from 'string-width';
import { log } from '../cli.js';
import { defineCommand } from '../command.js';
import { printLines } from '../output.js';
import { DEFAULT_DB, STORE_FLAGS, withStore } from '../store.js';

export const sessions = defineCommand({
  summary: 'list the sessions in the store',
  about: `usage: ooda sessions [--db FILE] [--json]

Lists the sessions in the store, oldest first: id, status, cycles, events,
signals, snapshots (those kept: a session's first and its newest 2), the
session it resumed and why it ended. With --json, each line also has the
config the session ran with (a resumed session's: its own, under the flags,
file and environment of the command that resumed it).`,
  flags: {
    ...STORE_FLAGS,
    json: { type: 'boolean', help: 'one JSON object per line instead of a table' },
  },
  async run(values) {
    const rows = await withStore(values.db, (store) => store.sessions());
    if (rows.length === 0) {
      const db = values.db ?? DEFAULT_DB;
      log(`${db} holds no session yet ('ooda run --db ${db}' starts one)`);
      return 0;
    }
    const listed = rows.map((r) => ({
      id: r.id,
      status: r.status,
      started: storedTime(r.started_at),
      cycles: `${r.start_cycle}..${r.cycles ?? r.last_cycle ?? r.start_cycle}`,
      events: r.events,
      signals: r.signals,
      snapshots: r.snapshots,
      resumedFrom: r.resumed_from ?? '',
      reason: r.reason ?? '',
    }));
    if (values.json) {
      // In JSON, what a session lacks is null; the table shows it as blank.
      const json = listed.map((row, i) => ({ ...row, resumedFrom: rows[i]!.resumed_from ?? null, reason: rows[i]!.reason ?? null, config: storedJson(rows[i]!.config) }));
      await printLines(json.map((row) => JSON.stringify(row)));
      return 0;
    }
    const header = Object.keys(listed[0]!);
    const table = [header, ...listed.map((row) => Object.values(row).map(String))];
    // Padded by the columns a terminal gives each cell, so wide (CJK, emoji) session ids and reasons keep the columns aligned.
    const widths = header.map((_, i) => Math.max(...table.map((line) => stringWidth(line[i]!))));
    await printLines(table.map((line) => line.map((cell, i) => cell + ' '.repeat(widths[i]! - stringWidth(cell))).join('  ').trimEnd()));
    return 0;
  },
});

/** A stored time (ms since the epoch) as an ISO date, or as stored when it is no date (the file was damaged or edited). */
function storedTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

/** The stored config as JSON, or its text when the file was damaged or edited: a listing shows what is there. */
function storedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
