/**
 * A tool may be named like a property every object has (`constructor`, which
 * the tool-name rule allows): the planner's strategy families treat it like
 * any other name, not as the built-in Object property.
 */
import test from 'ava';
import { StrategyMatcher } from '../mind/strategies.js';
import { weatherTool } from './helpers/agentRuns.js';

test('a tool named constructor gets the strategy family the same tool under another name gets', (t) => {
  const matcher = new StrategyMatcher();
  t.is(matcher.familyOf(weatherTool({ name: 'constructor' })), new StrategyMatcher().familyOf(weatherTool()));
});
