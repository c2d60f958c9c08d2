/**
 * `ooda recall --query Q [--top-k K]`: episodic recall (seed 001) on the
 * latest saved state of the store; prints the episodes as NDJSON, best first.
 */
import { Mind, StoreError } from '../../streams/index.js';
import { intFlag, log, parseFlags, UsageError, type Command } from '../cli.js';
import { printLines } from '../output.js';
import { DEFAULT_DB, STORE_FLAGS, STORE_USAGE, withStore } from '../store.js';

const USAGE = `usage: ooda recall --query Q [--top-k K] [--db FILE]

Recalls the episodes of the latest saved session state that share most terms
with the query, best first, as NDJSON (nothing on stdout, and a note on stderr,
when none shares a term).

options:
  --query Q           what to recall (required)
  --top-k K           at most K episodes (default 5)
${STORE_USAGE}
  -h, --help          this help`;

export const recall: Command = {
  summary: 'recall episodes from the latest saved session (--query Q --top-k K)',
  usage: USAGE,
  async run(argv) {
    const { values } = parseFlags(argv, { ...STORE_FLAGS, query: { type: 'string' }, 'top-k': { type: 'string' } });
    if (values.query === undefined || values.query.trim() === '') throw new UsageError('--query: expected the text to recall');
    const topK = intFlag('top-k', values['top-k'], { min: 1 }) ?? 5;
    const { session, state } = await withStore(values.db, async (store) => {
      const latest = await store.latestSession();
      const snapshot = latest && (await store.snapshot(latest.id, 'latest'));
      if (!snapshot) {
        const db = values.db ?? DEFAULT_DB;
        throw new StoreError(`store: ${db} holds no saved session to recall from (start one with 'ooda run --db ${db}')`, 'NO_SESSION');
      }
      return { session: latest.id, state: JSON.parse(snapshot.state) as unknown };
    });
    const { episodes } = Mind.fromJSON(state);
    const recalled = episodes.recall(values.query, topK);
    await printLines(recalled.map((episode) => JSON.stringify(episode)));
    if (recalled.length === 0) log(`none of the ${episodes.size} episode(s) of session ${session} shares a term with ${JSON.stringify(values.query)}`);
    return 0;
  },
};
