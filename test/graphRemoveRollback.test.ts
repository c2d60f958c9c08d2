/**
 * A removal from the knowledge graph that a rollback undoes puts the graph
 * back as it was, order included: the removed triples do not come back last,
 * so queries, adjacency (kg_query's facts) and the saved state answer as
 * before the rolled-back pass.
 */
import test from 'ava';
import { Mind } from '../mind/mind.js';

test('a rolled-back removal leaves the graph exactly as the checkpoint had it: saved state and query order', (t) => {
  const mind = new Mind();
  for (const moon of ['phobos', 'deimos', 'luna']) mind.graph.add('mars', 'has_moon', moon);
  mind.graph.add('mars', 'is_a', 'planet');
  mind.checkpoint();
  const saved = JSON.stringify(mind.toJSON().graph);
  const around = (m: Mind) => m.graph.adjacent('mars').map((triple) => triple.object);
  const before = around(mind);
  t.deepEqual(before, ['phobos', 'deimos', 'luna', 'planet']);

  t.is(mind.graph.remove({ subject: 'mars', object: 'deimos' }), 1);
  t.is(mind.graph.remove({ predicate: 'has_moon', object: 'phobos' }), 1);
  mind.graph.add('mars', 'orbits', 'sun');
  mind.rollback();

  t.is(JSON.stringify(mind.toJSON().graph), saved);
  t.deepEqual(around(mind), before);
  t.deepEqual(mind.graph.query({ predicate: 'has_moon' }).map((triple) => triple.object), ['phobos', 'deimos', 'luna']);
  t.is(mind.graph.knowledgeSize, 4);
});
