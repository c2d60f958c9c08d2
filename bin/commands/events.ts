/**
 * `ooda events [--session ID] [--kind K] [--limit N]`: prints stored events as
 * NDJSON, in seq order — the same lines `ooda run` printed. The log is read
 * and written a page at a time, each page handed to stdout before the next is
 * read, so memory does not grow with the store; a closed pipe
 * (`ooda events | head`) ends the command quietly.
 */
import { EVENT_KINDS, eventFromRow, toNdjson } from '../../streams/index.js';
import { intFlag, parseFlags, UsageError, type Command } from '../cli.js';
import { STORE_FLAGS, STORE_USAGE, withStore } from '../store.js';

/** Events read and written at a time. */
const PAGE = 1000;

const USAGE = `usage: ooda events [--session ID] [--kind K] [--limit N] [--db FILE]

Prints the stored events as NDJSON in seq order.

options:
  --session ID        only this session's events
  --kind K            only events of this kind (${EVENT_KINDS.join(', ')})
  --limit N           at most N events
${STORE_USAGE}
  -h, --help          this help`;

export const events: Command = {
  summary: 'print stored events as NDJSON (filter by session and kind)',
  usage: USAGE,
  async run(argv) {
    const { values } = parseFlags(argv, { ...STORE_FLAGS, session: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string' } });
    if (values.kind !== undefined && !(EVENT_KINDS as readonly string[]).includes(values.kind)) {
      throw new UsageError(`--kind: expected one of ${EVENT_KINDS.join(', ')}, got ${JSON.stringify(values.kind)}`);
    }
    const limit = intFlag('limit', values.limit) ?? Infinity;
    await withStore(values.db, async (store) => {
      if (values.session !== undefined) await store.existingSession(values.session);
      const filter = { ...(values.session !== undefined ? { session: values.session } : {}), ...(values.kind !== undefined ? { kind: values.kind } : {}) };
      let closed = false;
      const out = toNdjson(process.stdout, { onClosed: () => (closed = true) });
      let afterSeq = 0;
      for (let left = limit; left > 0 && !closed; ) {
        const rows = await store.events({ ...filter, afterSeq, limit: Math.min(PAGE, left) });
        if (rows.length === 0) break;
        for (const row of rows) out.next(eventFromRow(row));
        await out.flushed();
        afterSeq = rows.at(-1)!.seq;
        left -= rows.length;
      }
    });
    return 0;
  },
};
