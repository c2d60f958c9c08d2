import test from 'ava';
import fc from 'fast-check';
import { criteriaWords, keywords, mentionsAny, words } from '../mind/text.js';

/** The word rule written the plain way (see mind/text.ts): the reference the fast paths must agree with. */
function referenceWords(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.toLowerCase().matchAll(/(?:[\p{L}\p{N}_+#-]|(?<![\p{L}\p{N}+#.])\.(?=[\p{L}\p{N}]))+/gu)) {
    const marked = /[+#]/.test(run);
    if (!marked ? run.length > 2 : run.length > 2 ? /[\p{L}\p{N}]/u.test(run) : /^\p{L}[+#]$/u.test(run)) out.push(run);
  }
  return out;
}

// Characters that exercise every branch: ASCII word and separator characters, the name marks (`+`, `#`, a
// word-starting `.`), letters that change length when lower-cased (İ), non-ASCII letters and symbols, and
// astral code points (a letter and an emoji).
const unit = fc.constantFrom(
  'a', 'b', 'c', 'X', 'B', '0', '_', '-', ' ', '.', '"', '+', '#', 'é', 'İ', 'ß', 'Σ', '€', '\n', '𝐀', '😀', 'ab', 'abc', 'bca', 'the',
  'C++', 'c#', '.net',
);

test('property: words (ASCII fast path and Unicode fallback) equals the word rule written as one Unicode pattern', (t) => {
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
      t.deepEqual(words(text), referenceWords(text));
    }),
    { numRuns: 5000 },
  );
});

// ASCII only: the texts most notes are, searched with one pattern per word list.
const asciiUnit = fc.constantFrom('a', 'b', 'c', 'X', 'B', '0', '_', '-', ' ', '.', '"', '(', '|', '+', '#', '\n', 'ab', 'abc', 'bca', 'ABC', 'the', 'C++', 'c#', '.net');

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

test('names keep their marks: C++, C#, F# and .NET are words; C, "+++" and the dots of "Node.js" and "Mars." are not', (t) => {
  t.deepEqual(words('C++ and C# are languages, C is one too'), ['c++', 'and', 'c#', 'are', 'languages', 'one', 'too']);
  t.deepEqual(words('F# runs on .NET (and .NET Core); Node.js does not.'), ['f#', 'runs', '.net', 'and', '.net', 'core', 'node', 'does', 'not']);
  t.deepEqual(words('+++ ### #1 a+b A+ grade ...Mars. x.NET'), ['a+b', 'a+', 'grade', 'mars', 'net']);
  t.deepEqual(words('Ünïcode: C++, C#, .NET'), ['ünïcode', 'c++', 'c#', '.net'], 'the same outside ASCII');
  t.deepEqual(criteriaWords('Remember that C# is a language'), ['remember', 'c#', 'language']);
});

test('mentionsAny finds names whole: c++ is not c, .net is not net', (t) => {
  for (const text of ['I like C++.', 'I like c++ too', 'Ünïcode C++']) t.true(mentionsAny(text, ['c++']), text);
  for (const text of ['I like C.', 'C+++', 'Ünïcode C']) t.false(mentionsAny(text, ['c++']), text);
  t.false(mentionsAny('I like C++ and C#', ['c']));
  t.true(mentionsAny('learn .NET today', ['.net']));
  t.false(mentionsAny('learn .NET today', ['net']));
  t.true(mentionsAny('a fishing net.', ['net']));
  t.false(mentionsAny('a fishing net.', ['.net']));
  t.false(mentionsAny('..net', ['.net']), 'a "." after a "." starts no word');
  t.false(mentionsAny('é ..net', ['.net']), 'the same outside ASCII');
  t.true(mentionsAny('é ...net', ['net']));
});
