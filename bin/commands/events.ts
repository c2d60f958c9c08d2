/**
 * `ooda events [--session ID] [--kind K] [--limit N | --last N]`: prints
 * stored events as NDJSON, in seq order — the same lines `ooda run` printed:
 * all of them, the oldest N or the newest N. The log is read
 * and written a page at a time, each page handed to stdout before the next is
 * read, so memory does not grow with the store; a closed pipe
 * (`ooda events | head`) ends the command quietly; stdout that cannot be
 * written (a full disk) fails it.
 */
import { EVENT_KINDS, eventFromRow, toNdjson } from '../../streams/index.js';
import { intFlag, UsageError } from '../cli.js';
import { defineCommand } from '../command.js';
import { STORE_FLAGS, withStore } from '../store.js';

export const events = defineCommand({
  summary: 'print stored events as NDJSON (filter by session and kind)',
  about: `usage: ooda events [--session ID] [--kind K] [--limit N | --last N] [--db FILE]

Prints the stored events as NDJSON in seq order (oldest first, also with --last).`,
  flags: {
    session: { type: 'string', arg: 'ID', help: 'only this session\u2019s events' },
    kind: { type: 'string', arg: 'K', help: `only events of this kind (${EVENT_KINDS.join(', ')})` },
    limit: { type: 'string', arg: 'N', help: 'at most N events: the oldest N' },
    last: { type: 'string', arg: 'N', help: 'the newest N events (printed oldest first); not with --limit' },
    ...STORE_FLAGS,
  },
  async run(values) {
    if (values.kind !== undefined && !(EVENT_KINDS as readonly string[]).includes(values.kind)) {
      throw new UsageError(`--kind: expected one of ${EVENT_KINDS.join(', ')}, got ${JSON.stringify(values.kind)}`);
    }
    if (values.limit !== undefined && values.last !== undefined) throw new UsageError('--limit cannot be combined with --last: --limit N gives the oldest N events, --last N the newest N');
    const last = intFlag('last', values.last);
    const limit = last ?? intFlag('limit', values.limit) ?? Infinity;
    await withStore(values.db, async (store) => {
      if (values.session !== undefined) await store.existingSession(values.session);
      const filter = { ...(values.session !== undefined ? { session: values.session } : {}), ...(values.kind !== undefined ? { kind: values.kind } : {}) };
      let closed = false;
      const out = toNdjson(process.stdout, { onClosed: () => (closed = true) });
      // The newest N start at the N-th newest; with fewer than N, at the first.
      const afterSeq = last ? ((await store.nthNewestSeq(filter, last)) ?? 1) - 1 : 0;
      let left = limit;
      for await (const rows of store.eventPages({ ...filter, afterSeq })) {
        for (const row of rows.slice(0, left)) out.next(eventFromRow(row));
        await out.flushed();
        left -= rows.length;
        if (left <= 0 || closed) break;
      }
      if (out.failure) throw out.failure;
    });
    return 0;
  },
});
