/**
 * Seed 004 rolls memory back on no `:syntax-error` (nor `:tool-error`): a tool
 * whose input does not parse fails transiently and the state is kept, while a
 * programming error (TypeError) is still critical and rolled back.
 */
import test from 'ava';
import { from, take, toArray, VirtualTimeScheduler } from 'rxjs';
import type { Tool } from '../mind/tool.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, goalStimulus } from '../streams/testing.js';
import { runBounded, weatherTool } from './helpers/agentRuns.js';

/** A weather tool that notes a fact in the graph, then throws `error()`. */
function throwingAfterAFact(error: () => Error): Tool<{ city: string }> {
  return weatherTool({
    execute: (_input, { mind }) => {
      mind.graph.add('paris', 'weather_seen', 'yes');
      throw error();
    },
  });
}

const errors = (events: AgentEvent[]) => events.flatMap((e) => (e.kind === 'error' ? [e] : []));
const goal = 'weather forecast rain temperature for Paris';

test('a tool that throws a SyntaxError (JSON.parse of a malformed body) fails transiently: nothing is rolled back', (t) => {
  const tool = throwingAfterAFact(() => {
    try {
      JSON.parse('{"temperature": ');
    } catch (error) {
      return error as Error;
    }
    return new Error('JSON.parse accepted a malformed body');
  });
  const events = runBounded({ tools: [tool], config: { maxCycles: 1 } }, goal, 400);
  const first = errors(events)[0];
  t.truthy(first, 'the failure is an error event');
  t.like(first, { severity: 'transient', rolledBack: false, tool: 'weather_lookup' });
  t.regex(first!.message, /JSON/);
  t.like(events.find((e) => e.kind === 'action'), { tool: 'weather_lookup', status: 'failed' });
});

/** One cycle of the tool on virtual time: its events, and whether the fact it noted is still in the mind. */
function oneCycle(tool: Tool<{ city: string }>): { events: AgentEvent[]; factKept: boolean } {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { tools: [tool], config: { maxCycles: 1 } });
  let events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus(goal)])] })
    .pipe(take(400), toArray())
    .subscribe((all) => (events = all));
  scheduler.flush();
  return { events, factKept: agent.mind.graph.query({ subject: 'paris', predicate: 'weather_seen' }).length > 0 };
}

test('the SyntaxError keeps what the tool changed, where a TypeError rolls it back', (t) => {
  const kept = oneCycle(throwingAfterAFact(() => new SyntaxError('Unexpected end of JSON input')));
  const rolled = oneCycle(throwingAfterAFact(() => new TypeError("Cannot read properties of null (reading 'x')")));
  t.true(errors(kept.events).length > 0 && errors(kept.events).every((e) => e.severity === 'transient' && !e.rolledBack));
  t.true(kept.factKept, 'the fact the tool added before the SyntaxError is kept');
  t.true(errors(rolled.events).some((e) => e.severity === 'critical' && e.rolledBack));
  t.false(rolled.factKept, 'the fact the tool added before the TypeError is rolled back');
});
