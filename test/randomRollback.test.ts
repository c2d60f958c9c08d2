/**
 * The mind's seeded source is part of the state a rollback restores: a pass
 * rolled back after drawing from it (a tool's `ctx.mind.random.next()`, an
 * id) leaves the source as the pass found it, so the retry draws what the
 * failed attempt drew, as a mind restored from the checkpoint would.
 */
import test from 'ava';
import { Mind } from '../mind/mind.js';

test('a rollback restores the seeded source: the draws and ids after it are those the rolled-back pass made', (t) => {
  const mind = new Mind({ seed: 7 });
  mind.random.next();
  mind.checkpoint();
  const checkpointed = mind.toJSON().random;

  const drawn = [mind.random.next(), mind.random.next()];
  const id = mind.random.id('probe');
  mind.rollback();
  t.deepEqual(mind.toJSON().random, checkpointed);
  t.deepEqual([mind.random.next(), mind.random.next()], drawn);
  t.is(mind.random.id('probe'), id);
});

test('a restored mind\'s source is journaled too', (t) => {
  const mind = Mind.fromJSON(new Mind({ seed: 7 }).toJSON());
  mind.checkpoint();
  const first = mind.random.next();
  mind.rollback();
  t.is(mind.random.next(), first);
});
