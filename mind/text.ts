/**
 * Text helpers shared by the mind: the word rule and a small stop-word list.
 *
 * The word rule is seed 001's (words of more than two characters, lower-cased)
 * with names kept whole, and symbols follow it too (`symbolId` in
 * knowledgeGraph.ts), so a criteria word matches the symbol of the same name:
 *
 * - a word is a run of letters, digits, `_`, `-`, `+` and `#` ("C++", "C#");
 * - a `.` directly before a letter or digit starts a word when the character
 *   before it is none of a letter, a digit, `+`, `#` or `.` (".NET", ".env";
 *   but "Node.js" is `node`, `js`, and "...Mars" is `mars`);
 * - a word counts when it has more than two characters, or when it is a letter
 *   marked with `+` or `#` ("C#", "F#"); a word with `+` or `#` needs a letter
 *   or digit ("+++" is none).
 */
const STOP_WORDS = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'are', 'was', 'were', 'has', 'have', 'had', 'its',
  'all', 'any', 'each', 'but', 'not', 'you', 'your', 'our', 'their', 'them', 'they', 'what', 'which', 'who', 'how',
  'why', 'when', 'where', 'about', 'than', 'then', 'there', 'these', 'those', 'can', 'will', 'would', 'should',
  'could', 'may', 'might', 'must', 'did', 'does', 'say', 'said', 'also', 'some', 'more', 'most', 'other', 'such',
]);

/** A word as {@link words} reads it (outside ASCII): the Unicode form of the ASCII loop there. */
const WORD = /(?:[\p{L}\p{N}_+#-]|(?<![\p{L}\p{N}+#.])\.(?=[\p{L}\p{N}]))+/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
const MARK = /[+#]/;

const PLUS = 43;
const HASH = 35;
const DOT = 46;

/** Whether an ASCII code is a letter or a digit. */
function isAsciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** Whether an ASCII code is a word character: a letter, a digit, `_`, `-`, `+` or `#` (the ASCII part of {@link WORD}, the word-starting `.` aside). */
function isAsciiWordCode(c: number): boolean {
  return isAsciiAlnum(c) || c === 95 || c === 45 || c === PLUS || c === HASH;
}

/** Whether a character before a `.` keeps it from starting a word: a letter, a digit, `+`, `#` or `.` ("Node.js", "..."). */
function blocksDotCode(c: number): boolean {
  return isAsciiAlnum(c) || c === PLUS || c === HASH || c === DOT;
}

/** Words of more than two characters, lower-cased, names such as "C++", "C#" and ".NET" kept whole (the rule above). */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = 0;
  let marked = false;
  // ASCII fast path (lower-case letters, digits, `_`, `-`, then the rarer `+`, `#` and `.`); any other
  // character hands the text to the Unicode pattern.
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45) continue;
    if (c >= 128) return unicodeWords(lower);
    if (c === PLUS || c === HASH) {
      marked = true;
      continue;
    }
    if (c === DOT && i + 1 < lower.length) {
      const next = lower.charCodeAt(i + 1);
      if (next >= 128) return unicodeWords(lower);
      if (isAsciiAlnum(next) && (i === 0 || !blocksDotCode(lower.charCodeAt(i - 1)))) continue;
    }
    const length = i - start;
    if (length > 2 ? !marked || hasAsciiAlnum(lower, start, i) : marked && length === 2 && isLowerAsciiLetter(lower.charCodeAt(start))) {
      out.push(lower.slice(start, i));
    }
    start = i + 1;
    marked = false;
  }
  return out;
}

/** Whether an ASCII code is a lower-case letter (the text is lower-cased first). */
function isLowerAsciiLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/** Whether `text` has a letter or digit between `from` and `to`. */
function hasAsciiAlnum(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isAsciiAlnum(text.charCodeAt(i))) return true;
  return false;
}

function unicodeWords(lower: string): string[] {
  const out: string[] = [];
  for (const match of lower.matchAll(WORD)) if (countsAsWord(match[0])) out.push(match[0]);
  return out;
}

/** Whether a run of word characters counts as a word: more than two characters, or a letter and `+` / `#`; with `+` or `#`, only with a letter or digit. */
function countsAsWord(run: string): boolean {
  if (!MARK.test(run)) return run.length > 2;
  return run.length > 2 ? LETTER_OR_DIGIT.test(run) : run.length === 2 && LETTER.test(run[0]!);
}

/** The code point that ends at `at` (a surrogate pair is two code units). */
function codePointBefore(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? text.codePointAt(at - 2)! : code;
}

/** Whether a code point is a word character (letter, digit, `_`, `-`, `+`, `#`). */
function isWordPoint(point: number): boolean {
  if (point < 128) return isAsciiWordCode(point);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(point));
}

/** Whether a code point is a letter or a digit. */
function isAlnumPoint(point: number): boolean {
  return point < 128 ? isAsciiAlnum(point) : LETTER_OR_DIGIT.test(String.fromCodePoint(point));
}

/**
 * Whether the text before `at` belongs to the word that would start at `at`:
 * a word character, or a `.` that starts that word ("x" in "x-ray", "." in
 * ".net"); also a `.` before a word that itself starts with `.` ("..net" has
 * no word ".net").
 */
function joinsBefore(text: string, at: number): boolean {
  if (at <= 0) return false;
  const before = codePointBefore(text, at);
  if (before !== DOT) return isWordPoint(before);
  const first = text.codePointAt(at)!;
  if (first === DOT) return true;
  if (!isAlnumPoint(first)) return false;
  if (at < 2) return true;
  const beforeDot = codePointBefore(text, at - 1);
  return !(beforeDot === PLUS || beforeDot === HASH || beforeDot === DOT || isAlnumPoint(beforeDot));
}

/** Whether the text from `end` on continues the word ending there: a word character, or a `.` starting a word after `_` or `-`. */
function joinsAfter(text: string, end: number): boolean {
  if (end >= text.length) return false;
  const after = text.codePointAt(end)!;
  if (after !== DOT) return isWordPoint(after);
  const last = text.charCodeAt(end - 1);
  return (last === 95 || last === 45) && end + 1 < text.length && isAlnumPoint(text.codePointAt(end + 1)!);
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

/** Not after a word character, a `.` that starts the word, or a `.` before a word starting with `.` (see joinsBefore). */
const NOT_JOINED_BEFORE = String.raw`(?<![A-Za-z0-9_+#-]|(?:^|[^A-Za-z0-9+#.])\.(?=[A-Za-z0-9])|\.(?=\.))`;
/** Not before a word character, or a `.` that goes on with the word after `_` or `-` (see joinsAfter). */
const NOT_JOINED_AFTER = String.raw`(?![A-Za-z0-9_+#-]|(?<=[_-])\.[A-Za-z0-9])`;

/**
 * A pattern matching any of the ASCII words of a list as a whole word of an
 * ASCII text, in any case; null when the list has none (a word outside ASCII
 * is never one of an ASCII text's words).
 */
function asciiWholeWords(wanted: readonly string[]): RegExp | null {
  const ascii = wanted.filter((w) => !NON_ASCII.test(w)).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return ascii.length === 0 ? null : new RegExp(`${NOT_JOINED_BEFORE}(?:${ascii.join('|')})${NOT_JOINED_AFTER}`, 'i');
}

/** {@link mentionsAny} for a lower-cased text: each wanted word searched for, and kept where it stands alone. */
function searchWholeWords(lower: string, wanted: readonly string[]): boolean {
  for (const word of wanted) {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      const end = at + word.length;
      if (!joinsBefore(lower, at) && !joinsAfter(lower, end)) return true;
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
    const relation = Object.hasOwn(RELATION_WORDS, w) ? RELATION_WORDS[w] : undefined;
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
const SYMBOL_WORD_BREAK = /[_:]+/;
const HYPHENS = /-+/;

/**
 * The stemmed parts of a symbol id, memoised: its words, split on `_` and `:`
 * (`has_moon` → `has`, `moon`), and the pieces of a hyphenated word besides
 * the word itself (`x-rays` → `x-ray`, `x`, `ray`), since a criteria word keeps
 * its hyphens ("x-ray") and may name a piece ("rays").
 */
export function symbolStems(symbol: string): readonly string[] {
  let parts = stemCache.get(symbol);
  if (!parts) {
    if (stemCache.size >= 100_000) stemCache.clear();
    const found: string[] = [];
    for (const part of symbol.split(SYMBOL_WORD_BREAK)) {
      if (part.length === 0) continue;
      found.push(stem(part));
      if (part.includes('-')) for (const piece of part.split(HYPHENS)) if (piece.length > 0) found.push(stem(piece));
    }
    stemCache.set(symbol, (parts = found));
  }
  return parts;
}
