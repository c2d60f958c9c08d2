/**
 * The knowledge memo behind tool scores (pending conclusions, gaps, stated
 * facts, mined rules): a key's value is computed once per knowledge version,
 * and the memo keeps a bounded number of keys, so a long run's stream of goal
 * wordings does not pile up in it.
 */
import test from 'ava';
import { KnowledgeCache } from '../mind/knowledgeCache.js';
import { Mind } from '../mind/mind.js';

/** More distinct keys than a memo keeps (1024). */
const MANY_KEYS = 5_000;

test('a key is computed once per knowledge version, again after the knowledge changes, and again after many other keys', (t) => {
  const mind = new Mind();
  const cache = new KnowledgeCache<number>();
  let computed = 0;
  const first = () => cache.get(mind, 'find moons of mars', () => ++computed);
  t.is(first(), 1);
  t.is(first(), 1, 'remembered while the knowledge is unchanged');
  mind.graph.add('mars', 'has_moon', 'phobos');
  t.is(first(), 2, 'computed again after the knowledge changed');
  for (let i = 0; i < MANY_KEYS; i++) cache.get(mind, `track reading sensor${i}`, () => i);
  t.is(first(), 3, 'dropped with the other keys past the bound, computed again');
});
