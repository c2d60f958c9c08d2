/**
 * Restoring a mind replaces its graph: what was derived from the graph before
 * (orientation's spreading activation, the knowledge memos of tool scores) is
 * not used after it, even when the restored graph is empty.
 */
import test from 'ava';
import { Mind } from '../mind/mind.js';
import { observeGoal, orientGoal } from '../mind/observation.js';

test('a mind restored to a state without the facts it has since learnt orients without them', (t) => {
  const mind = new Mind();
  const goal = mind.addGoal({ description: 'learn about mars' });
  const before = mind.toJSON();
  mind.graph.add('mars', 'orbits', 'sun');
  const orient = () => orientGoal(mind, observeGoal(mind, mind.goals.get(goal.id)!, 0));
  t.deepEqual(orient().activated, [{ symbol: 'sun', activation: 0.5 }]);
  mind.restore(before);
  t.is(mind.graph.size, 0);
  t.deepEqual(orient().activated, [], 'nothing is activated from a graph without triples');
  t.is(orient().adjacentTriples, 0);
});
