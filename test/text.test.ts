import test from 'ava';
import fc from 'fast-check';
import { keywords, mentionsAny, words } from '../mind/text.js';

/** The seed's word rule written the plain way: the reference the fast paths must agree with. */
function referenceWords(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_-]+/gu)) if (match[0].length > 2) out.push(match[0]);
  return out;
}

// Characters that exercise every branch: ASCII word and separator characters, letters that change length when
// lower-cased (İ), non-ASCII letters and symbols, and astral code points (a letter and an emoji).
const unit = fc.constantFrom('a', 'b', 'c', 'X', 'B', '0', '_', '-', ' ', '.', '"', 'é', 'İ', 'ß', 'Σ', '€', '\n', '𝐀', '😀', 'ab', 'abc', 'bca', 'the');

test('property: words (ASCII fast path and Unicode fallback) equals the seed rule applied with the Unicode pattern', (t) => {
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
      t.deepEqual(words(text), referenceWords(text));
    }),
    { numRuns: 5000 },
  );
});

// ASCII only: the texts most notes are, searched with one pattern per word list.
const asciiUnit = fc.constantFrom('a', 'b', 'c', 'X', 'B', '0', '_', '-', ' ', '.', '"', '(', '|', '\n', 'ab', 'abc', 'bca', 'ABC', 'the');

for (const [label, textUnit] of [['any text', unit], ['ASCII text', asciiUnit]] as const) {
  test(`property: mentionsAny is true exactly when one of the wanted words is one of the text's words (${label})`, (t) => {
    fc.assert(
      fc.property(fc.string({ unit: textUnit, maxLength: 40 }), fc.string({ unit, maxLength: 20 }), (text, query) => {
        const wanted = keywords(query);
        const present = new Set(words(text));
        t.is(mentionsAny(text, wanted), wanted.some((w) => present.has(w)));
      }),
      { numRuns: 5000 },
    );
  });
}

test('mentionsAny matches whole words only', (t) => {
  t.true(mentionsAny('Observed "Find moons of Mars"', ['moons']));
  t.false(mentionsAny('the moonscape', ['moon']));
  t.false(mentionsAny('half-moon', ['moon']));
  t.true(mentionsAny('moon, then sun', ['moon']));
});
