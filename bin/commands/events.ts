/**
 * `ooda events [--session ID] [--kind K] [--limit N]`: prints stored events as
 * NDJSON, in seq order — the same lines `ooda run` printed.
 */
import { EVENT_KINDS, eventFromRow } from '../../streams/index.js';
import { intFlag, parseFlags, UsageError, type Command } from '../cli.js';
import { STORE_FLAGS, STORE_USAGE, withStore } from '../store.js';

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
    const limit = intFlag('limit', values.limit);
    const rows = await withStore(values.db, (store) =>
      store.events({
        ...(values.session !== undefined ? { session: values.session } : {}),
        ...(values.kind !== undefined ? { kind: values.kind } : {}),
        ...(limit !== undefined ? { limit } : {}),
      }),
    );
    let out = '';
    for (const row of rows) out += `${JSON.stringify(eventFromRow(row))}\n`;
    process.stdout.write(out);
    return 0;
  },
};
