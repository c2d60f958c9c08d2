import test from 'ava';
import { criteriaWords } from '../mind/text.js';
import { expandSynonyms } from '../mind/synonyms.js';
import { runBounded } from './helpers/agentRuns.js';

test('a goal with the word "constructor" is searched like any other: no critical error, no rollback (synonyms are looked up as own keys)', (t) => {
  const events = runBounded({ config: { maxCycles: 2 } }, 'Search the library for the constructor');
  t.deepEqual(events.filter((e) => e.kind === 'error'), []);
  const searches = events.filter((e) => e.kind === 'action' && e.tool === 'library_search');
  t.true(searches.length > 0, 'library_search ran');
  t.true(searches.every((e) => e.kind === 'action' && e.status !== 'failed'));
  t.deepEqual(expandSynonyms(['constructor', 'tostring', '__proto__', 'search']), ['constructor', 'tostring', '__proto__', 'search', 'find', 'look', 'seek', 'locate', 'lookup']);
});

test('criteria words named like Object.prototype members stay words', (t) => {
  t.deepEqual(criteriaWords('the constructor has a toString and a valueOf'), ['constructor', 'has', 'tostring', 'valueof']);
});
