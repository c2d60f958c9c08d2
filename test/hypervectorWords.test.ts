/**
 * A hypervector space keeps a bounded number of word vectors: the vectors of
 * a long run's distinct words (generated goals, symbols, passages) do not
 * pile up, and a vector made again is equal to the one dropped.
 */
import test from 'ava';
import { HypervectorSpace, similarity } from '../mind/hypervector.js';

/** More distinct words than a space keeps (WORDS_KEPT, 16 384). */
const MANY_WORDS = 50_000;

test('the word vectors of more distinct words than a space keeps are dropped, and made again equal', (t) => {
  const space = new HypervectorSpace(64);
  const first = space.word('mars');
  t.is(space.word('mars'), first, 'a word vector is kept');
  for (let i = 0; i < MANY_WORDS; i++) space.word(`reading${i}`);
  const again = space.word('mars');
  t.not(again, first, 'the first vector is no longer held');
  t.deepEqual(again.bits, first.bits);
  t.is(similarity(again, first), 1);
});
