import test from 'ava';
import { Mind } from '../mind/mind.js';
import { restorable } from './mindFixtures.js';

test('mind.remember refuses an entry the saved memory could not hold, naming the field, and stores nothing', (t) => {
  const mind = new Mind();
  const entry = { content: 'saw rain', symbols: ['rain'], kind: 'Observation', at: 0, relevance: 0.5 };
  const refused: [Record<string, unknown>, string][] = [
    [{ kind: 'Note' }, 'working memory: kind must be one of Observation, Inference, Decision, Action, Reflection (got "Note")'],
    [{ relevance: NaN }, 'working memory: relevance must be a number from 0 to 1 (got NaN)'],
    [{ relevance: 5 }, 'working memory: relevance must be a number from 0 to 1 (got 5)'],
    [{ content: undefined }, 'working memory: content must be a string (got undefined)'],
    [{ symbols: 'rain' }, 'working memory: symbols must be an array of strings (got "rain")'],
    [{ at: '0' }, 'working memory: at must be a time in ms (got "0")'],
    [{ at: NaN }, 'working memory: at must be a time in ms (got NaN)'],
    [{ at: Infinity }, 'working memory: at must be a time in ms (got Infinity)'],
    [{ symbols: ['rain', 7] }, 'working memory: symbols must be an array of strings (got 7 at 1)'],
    [{ goalId: 3 }, 'working memory: goalId must be a goal id, a string, when given (got 3)'],
    [{ key: null }, 'working memory: key must be a string when given (got null)'],
  ];
  for (const [change, message] of refused) t.throws(() => mind.remember({ ...entry, ...change } as never), { instanceOf: TypeError, message });
  t.is(mind.memory.size, 0);
  t.true(restorable(mind));
  mind.remember(entry as never);
  t.is(mind.memory.size, 1);
  t.true(restorable(mind));
});

test('Mind.fromJSON (and mind.restore) of a value that is no mind state is a TypeError naming the first bad field; the mind restored into is unchanged', (t) => {
  const mind = new Mind();
  mind.addGoal({ description: 'Find moons of Mars' });
  const saved = JSON.parse(JSON.stringify(mind.toJSON())) as { goals: { description: unknown }[] };
  saved.goals[0]!.description = 5;
  const error = t.throws(() => Mind.fromJSON(saved), { instanceOf: TypeError });
  t.regex(error!.message, /^Mind\.restore: not a mind state: goals\.0\.description: /);
  t.false(error!.message.includes('\n'), 'one line, not a dump of every issue');
  t.throws(() => mind.restore(null), { instanceOf: TypeError, message: /^Mind\.restore: not a mind state: state: / });
  t.deepEqual(mind.goals.all().map((g) => g.description), ['Find moons of Mars'], 'the mind restored into is as it was');
});
