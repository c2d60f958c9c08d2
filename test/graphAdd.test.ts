import test from 'ava';
import { from, VirtualTimeScheduler } from 'rxjs';
import { Mind } from '../mind/mind.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, goalStimulus } from '../streams/testing.js';
import { weatherTool } from './helpers/agentRuns.js';
import { restorable } from './mindFixtures.js';

test('graph.add refuses a part that is no string or a confidence outside [0, 1], naming it, and adds nothing', (t) => {
  const mind = new Mind();
  const add = (...args: unknown[]) => () => (mind.graph.add as (...a: unknown[]) => boolean)(...args);
  t.throws(add('paris', 'weather', 'sunny', 90), { instanceOf: TypeError, message: 'knowledge graph: confidence must be a number from 0 to 1 (got 90)' });
  t.throws(add('paris', 'weather', 'sunny', NaN), { message: 'knowledge graph: confidence must be a number from 0 to 1 (got NaN)' });
  t.throws(add('paris', 'weather', 'sunny', '0.9'), { message: 'knowledge graph: confidence must be a number from 0 to 1 (got "0.9")' });
  t.throws(add(1, 'weather', 'sunny'), { message: 'knowledge graph: subject must be a string (got 1)' });
  t.throws(add('paris', undefined, 'sunny'), { message: 'knowledge graph: predicate must be a string (got undefined)' });
  t.throws(add('paris', 'weather', null), { message: 'knowledge graph: object must be a string (got null)' });
  t.is(mind.graph.knowledgeSize, 0);
  t.true(mind.graph.add('paris', 'weather', 'sunny', 0.9));
  t.true(restorable(mind));
});

test('a tool that adds a triple with a confidence of 90 fails as a bug of that tool, and the mind stays one a resume can load', (t) => {
  const tool = weatherTool({
    execute: ({ city }, { mind }) => {
      mind.graph.add(city, 'weather', 'sunny', 90);
      return { ok: true, summary: 'sunny' };
    },
  });
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [tool], config: { maxCycles: 1 } });
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus('weather forecast rain temperature in Paris')])] }).subscribe((e) => events.push(e));
  scheduler.flush();
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', rolledBack: true, tool: 'weather_lookup', message: 'knowledge graph: confidence must be a number from 0 to 1 (got 90)' });
  t.is(agent.mind.graph.knowledgeSize, 0);
  t.true(restorable(agent.mind));
});
