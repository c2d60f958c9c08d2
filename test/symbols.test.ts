/**
 * Symbols: how a label becomes a symbol id (mind/knowledgeGraph.ts symbolId),
 * the word rule it shares with text (mind/text.ts): `+`, `#` and a
 * word-starting `.` are kept, so C, C++, C# and .NET / NET stay apart, and
 * every other label keeps the symbol it had.
 */
import test from 'ava';
import fc from 'fast-check';
import { KnowledgeGraph, symbolId } from '../mind/knowledgeGraph.js';
import { Journal } from '../mind/journal.js';
import { Mind } from '../mind/mind.js';
import { stem, symbolStems, words } from '../mind/text.js';

/** symbolId before `+`, `#` and `.` were kept: the symbols stored sessions hold for labels without them. */
function oldSymbolId(label: string): string {
  return label.trim().toLowerCase().replace(/[^\p{L}\p{N}:_-]+/gu, '_').replace(/^_+|_+$/g, '');
}

test('C, C++, C#, F#, .NET and NET are distinct symbols, and distinct facts', (t) => {
  const labels = ['C', 'C++', 'C#', 'F#', '.NET', 'NET', 'A+', 'g++', '#hashtag'];
  const ids = labels.map(symbolId);
  t.deepEqual(ids, ['c', 'c++', 'c#', 'f#', '.net', 'net', 'a+', 'g++', '#hashtag']);
  const graph = new KnowledgeGraph(new Journal());
  t.deepEqual(labels.map((label) => graph.add(label, 'is a', 'name')), labels.map(() => true), 'none is a duplicate of another');
  t.deepEqual(graph.query({ predicate: 'is a', object: 'name' }).map((f) => [f.subject, graph.label(f.subject)]), labels.map((label, i) => [ids[i], label]));
  t.false(graph.add('c++', 'IS  A', 'Name'), 'the same fact in other case and spacing is a duplicate');
});

test('plain names keep the symbols they had', (t) => {
  const table: [string, string][] = [
    ['Red Dwarf', 'red_dwarf'],
    ['red  dwarf', 'red_dwarf'],
    ['  Red Planet ', 'red_planet'],
    ['has moon', 'has_moon'],
    ['agent:explored', 'agent:explored'],
    ['x-ray', 'x-ray'],
    ['Mars, again!', 'mars_again'],
    ['Mars.', 'mars'],
    ['...Mars', 'mars'],
    ['Node.js', 'node_js'],
    ['e.g.', 'e_g'],
    ['St. Louis', 'st_louis'],
    ['3.14', '3_14'],
    ['U.S.A.', 'u_s_a'],
    ["Barnard's Star", 'barnard_s_star'],
    ['Ærøskøbing', 'ærøskøbing'],
    ['Zürich (city)', 'zürich_city'],
    ['snake_case', 'snake_case'],
    ['_private_', 'private'],
    ['goal-3', 'goal-3'],
    ['???', ''],
  ];
  for (const [label, id] of table) {
    t.is(symbolId(label), id, label);
    t.is(oldSymbolId(label), id, `${label}: the same as before`);
  }
});

// Characters that reach every branch: letters in both cases, digits, the kept marks, separators, dots in every
// position, non-ASCII letters, a letter that grows when lower-cased (İ) and astral code points.
const unit = fc.constantFrom('a', 'B', 'c', '0', '7', ' ', '  ', '_', '-', ':', '.', ',', '!', "'", '+', '#', 'é', 'İ', 'Σ', '𝐀', '😀', '\t', 'net', 'C++');

test('property: a symbol id is its own symbol (symbolId is idempotent)', (t) => {
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 30 }), (label) => {
      const id = symbolId(label);
      t.is(symbolId(id), id);
    }),
    { numRuns: 5000 },
  );
});

test('property: a label without "+", "#" or "." keeps the symbol the old rule gave it', (t) => {
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 30 }), (label) => {
      fc.pre(!/[+#.]/.test(label));
      t.is(symbolId(label), oldSymbolId(label));
    }),
    { numRuns: 5000 },
  );
});

test('property: a "." that starts no word is dropped as before ("Mars.", "Node.js", "...Mars")', (t) => {
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 30 }), (label) => {
      // Each "." here ends a word or follows another ".", or no letter or digit comes after it.
      fc.pre(!/[+#]/.test(label) && !/(?<![\p{L}\p{N}.])\.(?=[\p{L}\p{N}])/u.test(label.toLowerCase()));
      t.is(symbolId(label), oldSymbolId(label));
    }),
    { numRuns: 5000 },
  );
});

test('property: each word of a label is a word of its symbol (criteria words meet the symbols of the same names)', (t) => {
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 30 }), (label) => {
      fc.pre(!label.includes('_')); // "_" joins the words of a symbol, but is part of a word in text ("snake_case")
      const id = symbolId(label);
      t.deepEqual(words(id.replace(/[_:]/g, ' ')), words(label), `${label} → ${id}`);
    }),
    { numRuns: 5000 },
  );
});

test('property: the stem of each word of a label is one of its symbol\'s stems (what goal evaluation compares)', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'aBc07 -:.,+#é'.split(''), 'İ', 'net', 'C++', 'rays', 'classes'), maxLength: 30 }), (label) => {
      const stems = symbolStems(symbolId(label));
      for (const word of words(label)) t.true(stems.includes(stem(word)), `${label}: ${word} in ${stems.join(' ')}`);
    }),
    { numRuns: 5000 },
  );
});

test('a hyphenated symbol stems whole and by its pieces; other symbols stem as before', (t) => {
  t.deepEqual(symbolStems('x-rays'), ['x-ray', 'x', 'ray']);
  t.deepEqual(symbolStems('has_moon'), ['has', 'moon']);
  t.deepEqual(symbolStems('agent:explored'), ['agent', 'explored']);
  t.deepEqual(symbolStems('c++_and_.net'), ['c++', 'and', '.net']);
  t.deepEqual(symbolStems('a_---_b'), ['a', '---', 'b'], 'a word of hyphens (a word in text too) stays one');
});

test('a snapshot made under the old rule resumes with its symbols as stored; the same fact added now is a new symbol', (t) => {
  // Under the old rule "C++" was the symbol `c` (the first label it was seen with is kept).
  const before = new Mind();
  before.graph.add('C++', 'is a', 'language');
  const json = JSON.parse(JSON.stringify(before.toJSON())) as ReturnType<Mind['toJSON']>;
  json.graph.symbols = json.graph.symbols.map(([id, label]) => (id === 'c++' ? ['c', label] : [id, label]));
  json.graph.triples = json.graph.triples.map((f) => (f.subject === 'c++' ? { ...f, subject: 'c' } : f));
  const resumed = Mind.fromJSON(json);
  t.deepEqual(resumed.graph.query({ predicate: 'is a' }).map((f) => [f.subject, resumed.graph.label(f.subject)]), [['c', 'C++']]);
  t.true(resumed.graph.add('C++', 'is a', 'language'), 'not "already known": it goes under c++');
  t.deepEqual(resumed.graph.query({ predicate: 'is a' }).map((f) => f.subject), ['c', 'c++']);
});
