/**
 * `ooda recall --query Q [--top-k K]`: episodic recall (seed 001) on the
 * latest saved state of the store; prints the episodes as NDJSON, best first.
 */
import { Mind, StoreError, storedMindState } from '../../streams/index.js';
import { intFlag, log, UsageError } from '../cli.js';
import { defineCommand } from '../command.js';
import { printLines } from '../output.js';
import { DEFAULT_DB, STORE_FLAGS, withStore } from '../store.js';

/** Episodes recalled unless --top-k says otherwise. */
const TOP_K = 5;

export const recall = defineCommand({
  summary: 'recall episodes from the latest saved session (--query Q --top-k K)',
  about: `usage: ooda recall --query Q [--top-k K] [--db FILE]

Recalls the episodes of the latest saved session state that share most terms
with the query, best first, as NDJSON (nothing on stdout, and a note on stderr,
when none shares a term).`,
  flags: {
    query: { type: 'string', arg: 'Q', help: 'what to recall (required)' },
    'top-k': { type: 'string', arg: 'K', help: `at most K episodes (default ${TOP_K})` },
    ...STORE_FLAGS,
  },
  async run(values) {
    if (values.query === undefined || values.query.trim() === '') throw new UsageError('--query: expected the text to recall');
    const topK = intFlag('top-k', values['top-k'], { min: 1 }) ?? TOP_K;
    const { session, state } = await withStore(values.db, async (store) => {
      const latest = await store.latestSession();
      const snapshot = latest && (await store.snapshot(latest.id, 'latest'));
      if (!snapshot) {
        const db = values.db ?? DEFAULT_DB;
        throw new StoreError(`store: ${db} holds no saved session to recall from (start one with 'ooda run --db ${db}')`, 'NO_SESSION');
      }
      return { session: latest.id, state: storedMindState(store.file, snapshot) };
    });
    const { episodes } = Mind.fromJSON(state);
    const recalled = episodes.recall(values.query, topK);
    await printLines(recalled.map((episode) => JSON.stringify(episode)));
    if (recalled.length === 0) log(`none of the ${episodes.size} episode(s) of session ${session} shares a term with ${JSON.stringify(values.query)}`);
    return 0;
  },
});
