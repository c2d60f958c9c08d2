/**
 * `ooda prune`: deletes the store's sessions beyond the newest `--keep N`
 * (sinks/sessionPruning.ts), saying on stderr which, with `--dry-run` only
 * saying so; `--vacuum` then compacts the file. It writes, so it waits for
 * another writer (a running agent) as `run` does, and fails naming the lock.
 */
import { pruneSessions } from '../../streams/index.js';
import { intFlag, log, UsageError } from '../cli.js';
import { defineCommand } from '../command.js';
import { DEFAULT_DB, STORE_FLAGS, withStore } from '../store.js';

export const prune = defineCommand({
  summary: 'delete old sessions from the store, keeping the newest N',
  about: `usage: ooda prune --keep N [--db FILE] [--dry-run] [--vacuum]

Deletes every session but the newest N, with their events, signals,
snapshots and query-table rows, in one transaction. The session 'ooda resume'
would continue is always kept. A deleted session can no longer be replayed.
The file keeps its size unless --vacuum compacts it (which needs as much free
disk space as the store takes).`,
  flags: {
    ...STORE_FLAGS,
    keep: { type: 'string', arg: 'N', help: 'how many of the newest sessions to keep (at least 1; required)' },
    'dry-run': { type: 'boolean', help: 'say what would be deleted, and delete nothing' },
    vacuum: { type: 'boolean', help: 'compact the file afterwards (VACUUM)' },
  },
  async run(values) {
    const keep = intFlag('keep', values.keep, { min: 1 });
    if (keep === undefined) throw new UsageError('--keep N is required: how many of the newest sessions to keep');
    const db = values.db ?? DEFAULT_DB;
    const dryRun = values['dry-run'] === true;
    const pruned = await withStore(db, (store) => pruneSessions(store, { keep, dryRun, vacuum: values.vacuum === true }), dryRun ? 'read' : 'existing');
    const verb = dryRun ? 'would delete' : 'deleted';
    for (const s of pruned) log(`${verb} session ${s.id} (${s.status}: ${s.events} events, ${s.signals} signals, ${s.snapshots} snapshots)`);
    log(`${db}: ${pruned.length === 0 ? 'no session to delete' : `${verb} ${pruned.length} session(s)`}, keeping the newest ${keep}${values.vacuum && !dryRun ? '; compacted' : ''}`);
    return 0;
  },
});
