/**
 * The synonym table (seed 001: about 20 root words) used to widen tool
 * profiles, so natural sentences activate tools whose keywords they do not
 * literally contain.
 */
export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  search: ['find', 'look', 'seek', 'locate', 'lookup'],
  read: ['open', 'load', 'view', 'inspect'],
  write: ['save', 'store', 'record', 'persist'],
  file: ['document', 'path', 'folder', 'disk'],
  fetch: ['download', 'retrieve', 'get', 'url'],
  web: ['http', 'website', 'page', 'online', 'internet'],
  run: ['execute', 'launch', 'invoke', 'start'],
  command: ['shell', 'terminal', 'script', 'program'],
  ask: ['question', 'query', 'request', 'prompt'],
  user: ['human', 'person', 'operator', 'you'],
  paper: ['article', 'publication', 'study', 'report'],
  book: ['library', 'text', 'reference', 'manual'],
  say: ['mention', 'state', 'claim', 'describe'],
  ingest: ['import', 'absorb', 'digest', 'parse'],
  learn: ['understand', 'extract', 'acquire', 'study'],
  similar: ['like', 'related', 'resembling', 'alike'],
  compare: ['contrast', 'match', 'relate', 'versus'],
  reason: ['infer', 'deduce', 'conclude', 'derive'],
  rule: ['pattern', 'law', 'regularity', 'implication'],
  gap: ['missing', 'incomplete', 'absent', 'lacking'],
  remember: ['recall', 'memory', 'past', 'episode'],
  knowledge: ['fact', 'graph', 'triple', 'relation'],
};

/** The words plus the synonyms of every word that is a root (de-duplicated, in order). */
export function expandSynonyms(keywords: readonly string[]): string[] {
  const out = new Set<string>();
  for (const keyword of keywords) {
    const word = keyword.toLowerCase();
    out.add(word);
    // Own keys only: a word such as "constructor" must not find Object.prototype's.
    for (const synonym of Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : []) out.add(synonym);
  }
  return [...out];
}
