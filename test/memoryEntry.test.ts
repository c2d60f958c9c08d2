import test from 'ava';
import { Mind } from '../mind/mind.js';

/** The mind's state through JSON and back, as a snapshot and a resume take it. */
const restorable = (mind: Mind): boolean => Mind.fromJSON(JSON.parse(JSON.stringify(mind.toJSON()))) instanceof Mind;

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
  ];
  for (const [change, message] of refused) t.throws(() => mind.remember({ ...entry, ...change } as never), { instanceOf: TypeError, message });
  t.is(mind.memory.size, 0);
  t.true(restorable(mind));
  mind.remember(entry as never);
  t.is(mind.memory.size, 1);
  t.true(restorable(mind));
});
