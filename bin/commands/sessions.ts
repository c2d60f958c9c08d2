/**
 * `ooda sessions`: lists the store's sessions, oldest first, as a table (or
 * NDJSON with --json).
 */
import { parseFlags, type Command } from '../cli.js';
import { printLines } from '../output.js';
import { STORE_FLAGS, STORE_USAGE, withStore } from '../store.js';

const USAGE = `usage: ooda sessions [--db FILE] [--json]

Lists the sessions in the store, oldest first: id, status, cycles, events,
signals, snapshots and the session it resumed.

options:
${STORE_USAGE}
  --json              one JSON object per line instead of a table
  -h, --help          this help`;

export const sessions: Command = {
  summary: 'list the sessions in the store',
  usage: USAGE,
  async run(argv) {
    const { values } = parseFlags(argv, { ...STORE_FLAGS, json: { type: 'boolean' } });
    const rows = await withStore(values.db, (store) => store.sessions());
    const listed = rows.map((r) => ({
      id: r.id,
      status: r.status,
      started: new Date(r.started_at).toISOString(),
      cycles: `${r.start_cycle}..${r.cycles ?? r.last_cycle ?? r.start_cycle}`,
      events: r.events,
      signals: r.signals,
      snapshots: r.snapshots,
      resumedFrom: r.resumed_from ?? '',
      reason: r.reason ?? '',
    }));
    if (values.json) {
      await printLines(listed.map((row) => JSON.stringify(row)));
      return 0;
    }
    const header = Object.keys(listed[0] ?? { id: '' });
    const table = [header, ...listed.map((row) => Object.values(row).map(String))];
    const widths = header.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
    await printLines(table.map((line) => line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()));
    return 0;
  },
};
