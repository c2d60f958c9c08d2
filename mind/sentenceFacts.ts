/**
 * Facts from plain sentences: the simple patterns content_ingest, kg_mutate
 * and answered questions understand.
 *
 * - "X is a Y" / "X is an Y" / "X is the Y" → (X, is a, Y)
 * - "Xs are Ys"                            → (X, is a, Y) (plural class statements)
 * - "X has Y" / "X has a Y" / "X have Y"    → (X, has, Y); "Saturn has 146 moons" → (saturn, has, 146 moons)
 * - "X has Y Z" (several words, no count)   → (X, has Y, Z): the last word is the object and the
 *   rest joins the predicate ("Mars has moon Phobos" → (mars, has moon, phobos)).
 *
 * Leading articles are dropped, and so is a lead-in that only says to keep the
 * fact ("Remember that …", "Note: …", "Please record that …"); subjects and
 * objects are at most four words, and a word may carry `+` or `#` ("C++", "C#")
 * or start with a `.` (".NET").
 * A question states no fact ("What is the capital of France", "Is Pluto a
 * planet?"): see {@link isQuestion}.
 */
import { punctuatedSentences, withoutEndPunctuation } from './text.js';

export interface SentenceFact {
  subject: string;
  predicate: string;
  object: string;
  /** The sentence the fact came from. */
  sentence: string;
}

/** A word of a phrase: letters, digits, `'`, `+`, `#` and `-`, after an optional `.` that starts it (".NET"). */
const PHRASE_WORD = String.raw`(?:\.(?=[\p{L}\p{N}]))?[\p{L}\p{N}'+#-]+`;
const PHRASE = String.raw`((?:${PHRASE_WORD}\s+){0,3}${PHRASE_WORD})`;
const IS_A = new RegExp(String.raw`^(?:the\s+|an?\s+)?${PHRASE}\s+(?:is|was)\s+(?:an?|the|one of the)\s+${PHRASE}$`, 'iu');
const ARE = new RegExp(String.raw`^(?:all\s+)?${PHRASE}\s+are\s+(?:an?\s+)?${PHRASE}$`, 'iu');
const HAS = new RegExp(String.raw`^(?:the\s+|an?\s+)?${PHRASE}\s+(?:has|have)\s+(?:an?\s+|the\s+|some\s+)?${PHRASE}$`, 'iu');

/** The facts stated by the sentences of `text`, in order. */
export function sentenceFacts(text: string): SentenceFact[] {
  const out: SentenceFact[] = [];
  for (const punctuated of punctuatedSentences(text)) {
    const sentence = withoutEndPunctuation(punctuated);
    if (sentence.length === 0 || isQuestion(punctuated)) continue;
    const fact = parseSentence(sentence);
    if (fact) out.push(fact);
  }
  return out;
}

const INTERROGATIVES = new Set(['what', 'who', 'whom', 'whose', 'which', 'where', 'when', 'why', 'how']);
const AUXILIARIES = new Set([
  'is', 'are', 'was', 'were', 'am', 'do', 'does', 'did', 'has', 'have', 'had',
  'can', 'could', 'will', 'would', 'shall', 'should', 'may', 'might', 'must',
]);

/**
 * Whether a sentence asks rather than states: it ends with `?`, starts with an
 * interrogative (what, who, which, where, when, why, how, …), or starts with an
 * auxiliary verb followed by a subject ("Is Pluto a planet", "Does Mars have
 * moons"; but "May is a month" states).
 */
export function isQuestion(sentence: string): boolean {
  if (sentence.trimEnd().endsWith('?')) return true;
  const [, first = '', second = ''] = FIRST_TWO_WORDS.exec(sentence) ?? [];
  const opening = first.toLowerCase();
  if (INTERROGATIVES.has(opening)) return true;
  return AUXILIARIES.has(opening) && second !== '' && !AUXILIARIES.has(second.toLowerCase());
}

/** The first two words of a sentence (runs of letters and apostrophes), without splitting the rest: kg_mutate asks on every cycle. */
const FIRST_TWO_WORDS = /^[^\p{L}']*([\p{L}']+)(?:[^\p{L}']+([\p{L}']+))?/u;

/** "Remember that", "note:", "please keep in mind that", …: words before a fact asking to keep it. */
const LEAD_IN = /^(?:please\s+)?(?:remember|note|record|learn|know|keep in mind|bear in mind)(?:\s+that\s+|\s*:\s*)/iu;

function parseSentence(sentence: string): SentenceFact | null {
  const plain = sentence.replace(LEAD_IN, '').replace(/[,"“”]+/g, ' ').replace(/\s+/g, ' ').trim();
  let m = IS_A.exec(plain);
  if (m) return { subject: m[1]!, predicate: 'is a', object: m[2]!, sentence };
  m = ARE.exec(plain);
  if (m) return { subject: singular(m[1]!), predicate: 'is a', object: singular(m[2]!), sentence };
  m = HAS.exec(plain);
  if (m) {
    const objectWords = m[2]!.split(' ');
    if (objectWords.length === 1 || /^\d+$/.test(objectWords[0]!)) return { subject: m[1]!, predicate: 'has', object: m[2]!, sentence };
    return { subject: m[1]!, predicate: `has ${objectWords.slice(0, -1).join(' ')}`, object: objectWords[objectWords.length - 1]!, sentence };
  }
  return null;
}

function singular(phrase: string): string {
  return phrase.replace(/(\w{3,}?)(ies|s)$/i, (_, stemPart: string, ending: string) => (ending.toLowerCase() === 'ies' ? `${stemPart}y` : stemPart));
}
