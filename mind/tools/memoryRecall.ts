/**
 * memory_recall (core, consolidating): recalls episodes and working-memory
 * entries relevant to the goal. When memory is nearly full it consolidates
 * first, which is why it earns seed 001's pressure bonus. What it recalls are
 * the agent's own notes, not evidence: it establishes no criteria (the notes
 * quote the goal itself), it brings the episodes' learnings back into view.
 */
import { z } from 'zod';
import { consolidate } from '../consolidation.js';
import { learningsOf } from '../episodicMemory.js';
import { goalText } from '../goals.js';
import { keywords, mentionsAny } from '../text.js';
import type { Tool } from '../tool.js';
import type { MemoryEntry, WorkingMemory } from '../workingMemory.js';

/** The newest `n` entries whose content shares a word with the query, oldest first. */
function newestMatching(memory: WorkingMemory, query: string, n: number): MemoryEntry[] {
  const wanted = keywords(query);
  return memory.newestWhere(wanted, (content) => mentionsAny(content, wanted), n);
}

const Input = z.object({
  query: z.string().min(1, 'query is required'),
  topK: z.number().int().positive().max(50).default(5),
});

export const memoryRecall: Tool<z.infer<typeof Input>> = {
  name: 'memory_recall',
  description: 'Recall past episodes and working-memory entries relevant to a query; consolidates when memory is nearly full.',
  keywords: [
    'remember', 'recall', 'memory', 'past', 'episode', 'before', 'previous', 'history', 'experience', 'earlier',
    'learned', 'context', 'retrieve', 'consolidate', 'review', 'what', 'happened', 'again',
  ],
  danger: 'safe',
  capabilities: ['memory.read', 'memory.consolidate'],
  consolidates: true,
  input: Input,
  scoring: {
    kind: 'core',
    base: ({ mind, goal }) => (mind.episodes.recall(goal.description, 1).length > 0 ? 0.6 : 0.3),
  },
  propose({ goal }) {
    return { query: goalText(goal), topK: 5 };
  },
  execute({ query, topK }, { mind, now }) {
    const consolidated = mind.memory.pressure >= mind.config.consolidationPressure ? consolidate(mind, now()) : null;
    const episodes = mind.episodes.recall(query, topK);
    const entries = newestMatching(mind.memory, query, topK);
    for (const entry of entries) mind.memory.consult(entry);
    const symbols = learningsOf(episodes);
    const note = consolidated ? ` after consolidating ${consolidated.freed} entries into ${consolidated.episodes} episode(s)` : '';
    return {
      ok: true,
      summary: `recalled ${episodes.length} episode(s) and ${entries.length} entry(ies)${note}`,
      symbols,
      data: { episodes: episodes.map((e) => ({ id: e.id, summary: e.summary })), entries: entries.map((e) => ({ id: e.id, content: e.content })), consolidated },
    };
  },
};
