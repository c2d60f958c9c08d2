/**
 * Text helpers shared by the mind: the seed's word rule (words of more than
 * two characters, lower-cased) and a small stop-word list.
 */
const STOP_WORDS = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'are', 'was', 'were', 'has', 'have', 'had', 'its',
  'all', 'any', 'each', 'but', 'not', 'you', 'your', 'our', 'their', 'them', 'they', 'what', 'which', 'who', 'how',
  'why', 'when', 'where', 'about', 'than', 'then', 'there', 'these', 'those', 'can', 'will', 'would', 'should',
  'could', 'may', 'might', 'must', 'did', 'does', 'say', 'said', 'also', 'some', 'more', 'most', 'other', 'such',
]);

const WORD = /[\p{L}\p{N}_-]+/gu;

/** Whether an ASCII code is a word character: a letter, a digit, `_` or `-` (the ASCII part of {@link WORD}). */
function isAsciiWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

/** Words of more than two characters, lower-cased (seed 001's encoding rule). */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = 0;
  // ASCII fast path (letters, digits, `_`, `-`); any other character hands the text to the Unicode pattern.
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if (c >= 128) return unicodeWords(lower);
    if (isAsciiWordCode(c)) continue;
    if (i - start > 2) out.push(lower.slice(start, i));
    start = i + 1;
  }
  return out;
}

function unicodeWords(lower: string): string[] {
  const out: string[] = [];
  for (const match of lower.matchAll(WORD)) if (match[0].length > 2) out.push(match[0]);
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}_-]/u;

/** Whether the code point at `at` (or, with `before`, the one ending there) is a word character. */
function wordCharAt(text: string, at: number, before: boolean): boolean {
  if (before ? at <= 0 : at >= text.length) return false;
  const code = text.charCodeAt(before ? at - 1 : at);
  if (code < 128) return isAsciiWordCode(code);
  // Outside ASCII: read the whole code point (a surrogate pair is two code units).
  const low = before && code >= 0xdc00 && code <= 0xdfff && at >= 2;
  const point = text.codePointAt(low ? at - 2 : before ? at - 1 : at)!;
  return WORD_CHAR.test(String.fromCodePoint(point));
}

/**
 * Whether any of `wanted` (words as {@link words} gives them) is one of the
 * text's words: a whole-word search, without splitting the text. An ASCII
 * text (most notes) is searched with one case-insensitive pattern per word
 * list (compiled once: lists from {@link keywords} are shared).
 */
export function mentionsAny(text: string, wanted: readonly string[]): boolean {
  if (NON_ASCII.test(text)) return searchWholeWords(text.toLowerCase(), wanted);
  let pattern = asciiPatterns.get(wanted);
  if (pattern === undefined) asciiPatterns.set(wanted, (pattern = asciiWholeWords(wanted)));
  return pattern !== null && pattern.test(text);
}

const NON_ASCII = /[^\x00-\x7f]/;
const asciiPatterns = new WeakMap<readonly string[], RegExp | null>();

/**
 * A pattern matching any of the ASCII words of a list as a whole word of an
 * ASCII text, in any case; null when the list has none (a word outside ASCII
 * is never one of an ASCII text's words).
 */
function asciiWholeWords(wanted: readonly string[]): RegExp | null {
  const ascii = wanted.filter((w) => !NON_ASCII.test(w)).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return ascii.length === 0 ? null : new RegExp(`(?<![A-Za-z0-9_-])(?:${ascii.join('|')})(?![A-Za-z0-9_-])`, 'i');
}

/** {@link mentionsAny} for a lower-cased text: each wanted word searched for, and kept where it stands alone. */
function searchWholeWords(lower: string, wanted: readonly string[]): boolean {
  for (const word of wanted) {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      const end = at + word.length;
      if (!wordCharAt(lower, at, true) && !wordCharAt(lower, end, false)) return true;
    }
  }
  return false;
}

const keywordCache = new Map<string, readonly string[]>();

/**
 * Content words: {@link words} without stop words, de-duplicated, in order.
 * Memoised (the same goal texts and memory notes are read every cycle); the
 * result is shared, so it is read-only.
 */
export function keywords(text: string): readonly string[] {
  let out = keywordCache.get(text);
  if (!out) {
    if (keywordCache.size >= 10_000) keywordCache.clear();
    const found = new Set<string>();
    for (const w of words(text)) if (!STOP_WORDS.has(w)) found.add(w);
    keywordCache.set(text, (out = [...found]));
  }
  return out;
}

/** Stop words that still matter in success criteria: "what mammals have" asks for `has` facts. */
const RELATION_WORDS: Readonly<Record<string, string>> = { has: 'has', have: 'has', had: 'has', can: 'can' };

/** Content words of criteria: {@link keywords} plus the relation words has/have/had (as `has`) and can. */
export function criteriaWords(text: string): string[] {
  const out = new Set<string>();
  for (const w of words(text)) {
    const relation = RELATION_WORDS[w];
    if (relation) out.add(relation);
    else if (!STOP_WORDS.has(w)) out.add(w);
  }
  return [...out];
}

/** A light singular form for matching ("planets" → "planet", "classes" → "class"). */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Splits text into sentences (on `.`, `!`, `?`, `;` and line breaks), trimmed, end punctuation and empty ones dropped. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(SENTENCE_BREAK)) {
    const sentence = withoutEndPunctuation(part.trim());
    if (sentence.length > 0) out.push(sentence);
  }
  return out;
}

/** The sentences of `text` as {@link sentences} splits them, with their end punctuation kept ("Is it?"). */
export function punctuatedSentences(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(SENTENCE_BREAK)) {
    const sentence = part.trim();
    if (sentence.length > 0) out.push(sentence);
  }
  return out;
}

const SENTENCE_BREAK = /(?<=[.!?;])\s+|\n+/;

/** A sentence without its end punctuation. */
export function withoutEndPunctuation(sentence: string): string {
  return sentence.replace(/[.!?;]+$/, '');
}

const stemCache = new Map<string, readonly string[]>();

/** The stemmed parts of a symbol id (`has_moon` → `has`, `moon`), memoised. */
export function symbolStems(symbol: string): readonly string[] {
  let parts = stemCache.get(symbol);
  if (!parts) {
    if (stemCache.size >= 100_000) stemCache.clear();
    parts = symbol.split(/[_:-]+/).filter((p) => p.length > 0).map(stem);
    stemCache.set(symbol, parts);
  }
  return parts;
}
