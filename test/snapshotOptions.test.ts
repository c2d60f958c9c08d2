import test from 'ava';
import { from, VirtualTimeScheduler } from 'rxjs';
import { agentSnapshot } from '../streams/snapshot.js';
import { agentEvents, createTestAgent, goalStimulus } from '../streams/testing.js';

/** An agent that has made five decisions on a goal it cannot complete. */
function workedAgent() {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { config: { maxCycles: 5 } });
  agentEvents(agent, { inputs: [from([goalStimulus('Find the zorblax')])] }).subscribe();
  scheduler.flush();
  return agent;
}

test('agentSnapshot gives at most the decisions and memory entries asked for: 0 is none, not the whole log', (t) => {
  const agent = workedAgent();
  t.is(agent.mind.provenance.length, 5);
  t.is(agentSnapshot(agent.mind, 's').decisions.length, 5);
  t.deepEqual(agentSnapshot(agent.mind, 's', { decisions: 0 }).decisions, []);
  t.deepEqual(agentSnapshot(agent.mind, 's', { decisions: 2 }).decisions.map((d) => d.cycle), [4, 5]);
  t.deepEqual(agentSnapshot(agent.mind, 's', { memoryEntries: 0 }).memory.recent, []);
});

test('agentSnapshot refuses a count that is not a whole number ≥ 0, naming it', (t) => {
  const agent = workedAgent();
  const refused = (options: Record<string, unknown>, message: string, instanceOf: typeof RangeError = RangeError) => t.throws(() => agentSnapshot(agent.mind, 's', options), { instanceOf, message });
  refused({ decisions: -1 }, 'agentSnapshot decisions: expected a whole number ≥ 0, got -1');
  refused({ decisions: 2.5 }, 'agentSnapshot decisions: expected a whole number ≥ 0, got 2.5');
  refused({ memoryEntries: NaN }, 'agentSnapshot memoryEntries: expected a whole number ≥ 0, got NaN');
  refused({ memoryEntries: '12' }, 'agentSnapshot memoryEntries: expected a whole number ≥ 0, got "12"', TypeError);
});
