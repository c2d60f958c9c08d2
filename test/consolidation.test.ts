import test from 'ava';
import { consolidate, HIGH_RELEVANCE, RELIEVED_PRESSURE } from '../mind/consolidation.js';
import { Mind } from '../mind/mind.js';

test('consolidation turns high-relevance entries into one episode per goal and relieves the pressure that triggered it', (t) => {
  const mind = new Mind();
  const goal = mind.addGoal({ description: 'Find moons of Mars' });
  for (let i = 0; i < 90; i++) {
    const relevance = i % 10 === 0 ? 0.9 : 0.3;
    mind.remember({ content: `note ${i}`, symbols: i % 10 === 0 ? [`moon_${i}`] : [], kind: 'Action', at: i, relevance, goalId: goal.id });
  }
  mind.checkpoint();
  const before = mind.toJSON();
  const result = consolidate(mind, 100);
  t.is(result.episodes, 1);
  t.is(mind.episodes.all()[0]!.learnings.length, 9);
  t.true(mind.memory.pressure <= RELIEVED_PRESSURE, `pressure ${mind.memory.pressure}`);
  t.true(mind.memory.all().every((e) => e.relevance < HIGH_RELEVANCE), 'the consolidated entries left working memory');
  t.is(result.freed, 90 - mind.memory.size);
  mind.rollback();
  t.deepEqual(mind.toJSON(), before, 'consolidation is journaled');
});
