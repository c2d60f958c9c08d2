/**
 * A fact stated again with a higher confidence raises the known triple's
 * confidence: what is derived from the graph (orientation's spreading
 * activation, reasoning) sees the new confidence at once, as a mind restored
 * from a snapshot of the same state does, and sees the old one again after a
 * rollback.
 */
import test from 'ava';
import { Mind } from '../mind/mind.js';
import { observeGoal, orientGoal } from '../mind/observation.js';

/** The activation orientation spreads from the goal to `sun`. */
function sunActivation(mind: Mind, goalId: string): number | undefined {
  const goal = mind.goals.get(goalId)!;
  return orientGoal(mind, observeGoal(mind, goal, 0)).activated.find((a) => a.symbol === 'sun')?.activation;
}

test('orientation sees a raised confidence at once, as a restored mind does, and the old one after a rollback', (t) => {
  const mind = new Mind();
  mind.graph.add('mars', 'orbits', 'sun', 0.2);
  const goal = mind.addGoal({ description: 'learn about mars', criteria: 'mars' });
  t.is(sunActivation(mind, goal.id), 0.1);
  mind.checkpoint();

  t.false(mind.graph.add('mars', 'orbits', 'sun', 0.9), 'a known triple is not added again');
  t.is(mind.graph.query({ subject: 'mars' })[0]!.confidence, 0.9);
  t.is(sunActivation(mind, goal.id), 0.45, 'the live mind orients with the new confidence');
  t.is(sunActivation(Mind.fromJSON(mind.toJSON()), goal.id), 0.45, 'as a mind restored from its snapshot does');

  mind.rollback();
  t.is(mind.graph.query({ subject: 'mars' })[0]!.confidence, 0.2);
  t.is(sunActivation(mind, goal.id), 0.1, 'after the rollback, the old confidence again');
});

test('the graph versions move when a confidence is raised and when the raise is undone', (t) => {
  const mind = new Mind();
  mind.graph.add('mars', 'orbits', 'sun', 0.2);
  mind.checkpoint();
  const version = mind.graph.version;
  const knowledgeVersion = mind.graph.knowledgeVersion;
  mind.graph.add('mars', 'orbits', 'sun', 0.9);
  t.true(mind.graph.version > version);
  t.true(mind.graph.knowledgeVersion > knowledgeVersion);
  const raised = mind.graph.version;
  mind.rollback();
  t.true(mind.graph.version > raised, 'the undo is a change too');
  t.is(mind.graph.knowledgeSize, 1);
});
