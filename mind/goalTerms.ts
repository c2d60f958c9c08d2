/**
 * What the mind derives from a goal's text: the symbols it names that
 * knowledge mentions, its criteria terms and its criteria clauses. Derived
 * once per wording (goals worded alike, such as the intervention goals for one
 * loop, share an entry) and again only when the graph has changed.
 */
import { goalText, splitIntoSubgoals, wordingKey, type Goal } from './goals.js';
import { symbolId, type KnowledgeGraph } from './knowledgeGraph.js';
import { sentenceFacts } from './sentenceFacts.js';
import { criteriaWords, keywords, stem, symbolStems, words } from './text.js';

export interface GoalTerms {
  /** Goal words (or their stems) that name graph symbols. */
  symbols: string[];
  /** Every criteria term, stemmed. */
  terms: string[];
  /** The criteria split like decomposition splits them, each clause as its stemmed terms. */
  clauses: string[][];
}

/** How many goal wordings the cache keeps derived terms for (it is emptied past this). */
export const GOAL_TERMS_KEPT = 1024;

export class GoalTermsCache {
  private readonly entries = new Map<string, GoalTerms & { version: number }>();

  constructor(private readonly graph: KnowledgeGraph) {}

  /** The goal's terms, derived now or when the graph last changed. Shared: read-only. */
  of(goal: Goal): GoalTerms {
    const key = wordingKey(goal);
    const cached = this.entries.get(key);
    if (cached && cached.version === this.graph.version) return cached;
    const symbols: string[] = [];
    // A symbol counts when knowledge mentions it (metadata alone, e.g. `agent:explored comet`, does not).
    const found = (candidate: string): void => {
      if (symbols.includes(candidate) || !this.graph.hasSymbol(candidate)) return;
      if (this.graph.degree(candidate) > 0 || this.graph.predicateCount(candidate) > 0) symbols.push(candidate);
    };
    const text = goalText(goal);
    // Two-word symbols first ("gas giants" → gas_giant), then single words and their stems.
    const all = words(text);
    for (let i = 0; i + 1 < all.length; i++) {
      found(`${all[i]}_${all[i + 1]}`);
      found(`${all[i]}_${stem(all[i + 1]!)}`);
    }
    for (const word of keywords(text)) {
      found(word);
      found(stem(word));
    }
    // Clauses and terms depend on the wording alone: derived once, kept when the graph changes.
    const clauses = cached?.clauses ?? criteriaClauses(goal);
    const terms = cached?.terms ?? [...new Set(clauses.flat())];
    const entry = { version: this.graph.version, symbols, terms, clauses };
    if (this.entries.size >= GOAL_TERMS_KEPT) this.entries.clear();
    this.entries.set(key, entry);
    return entry;
  }

  /** Forgets every entry (after a rollback or a restore, when graph versions repeat). */
  clear(): void {
    this.entries.clear();
  }
}

/** Verbs that say what to do rather than what to find; not criteria terms. */
const TASK_VERBS = new Set([
  'find', 'classify', 'map', 'discover', 'list', 'identify', 'explore', 'determine', 'learn', 'know', 'show',
  'describe', 'explain', 'understand', 'search', 'query', 'get', 'tell', 'check', 'analyze', 'analyse', 'study', 'ask',
  'remember', 'note', 'memorize', 'memorise',
]);

/**
 * The criteria (or description when empty) split on commas and "and" into
 * clauses, each as its stemmed content terms; clauses without terms are dropped.
 * A clause is established when one fact or one sentence covers all its terms.
 * A clause that states a fact needs its one-word subject and object even when
 * they are too short to be words ("Remember that C is a language" needs `c`,
 * or a known "C++ is a language" would establish it).
 */
function criteriaClauses(goal: Pick<Goal, 'criteria' | 'description'>): string[][] {
  const clauses: string[][] = [];
  for (const part of splitIntoSubgoals(goal)) {
    const terms = new Set(criteriaWords(part).filter((w) => !TASK_VERBS.has(w)).map(stem));
    for (const fact of sentenceFacts(part)) {
      for (const name of [fact.subject, fact.object]) {
        const id = symbolId(name);
        if (id.length > 0 && id.length <= 2) for (const stemmed of symbolStems(id)) terms.add(stemmed);
      }
    }
    if (terms.size > 0) clauses.push([...terms]);
  }
  return clauses;
}
