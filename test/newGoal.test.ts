import test from 'ava';
import { from, VirtualTimeScheduler } from 'rxjs';
import { Mind } from '../mind/mind.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, goalStimulus } from '../streams/testing.js';
import { weatherTool } from './helpers/agentRuns.js';
import { restorable } from './mindFixtures.js';

test('mind.addGoal refuses a goal its saved state could not hold, naming the field, and adds nothing', (t) => {
  const mind = new Mind();
  const refused: [unknown, string][] = [
    [{}, 'new goal: description must be a string (got undefined)'],
    [{ description: 7 }, 'new goal: description must be a string (got 7)'],
    [{ description: 'Find moons', criteria: ['moons'] }, 'new goal: criteria must be a string (got an array)'],
    [{ description: 'Find moons', priority: NaN }, 'new goal: priority must be a number from 0 to 255 (got NaN)'],
    [{ description: 'Find moons', stallThreshold: 0 }, 'new goal: stallThreshold must be a whole number ≥ 1 (got 0)'],
    [{ description: 'Find moons', parentId: 3 }, 'new goal: parentId must be a goal id (got 3)'],
  ];
  for (const [spec, message] of refused) t.throws(() => mind.addGoal(spec as never), { instanceOf: TypeError, message });
  t.is(mind.goals.all().length, 0);
  t.true(restorable(mind));
  t.like(mind.addGoal({ description: 'Find moons', priority: 300 }), { description: 'Find moons', criteria: '', priority: 255, stallThreshold: 6 });
});

test('a tool that adds a goal without a description fails as a bug of that tool, and the mind stays one a resume can load', (t) => {
  const spawner = weatherTool({
    execute: (_input, { mind, goal }) => {
      mind.addGoal({ description: undefined as never, parentId: goal.id });
      return { ok: true, summary: 'spawned' };
    },
  });
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [spawner], config: { maxCycles: 1 } });
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus('weather forecast rain temperature in Paris')])] }).subscribe((e) => events.push(e));
  scheduler.flush();
  t.like(events.find((e) => e.kind === 'action'), { tool: 'weather_lookup', status: 'failed' });
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', rolledBack: true, tool: 'weather_lookup', message: 'new goal: description must be a string (got undefined)' });
  t.is(agent.mind.goals.all().length, 1, 'only the goal given');
  t.true(restorable(agent.mind));
});
