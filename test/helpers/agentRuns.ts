/**
 * Test helpers for whole agents on virtual time: the weather tool many tests
 * plug in, a bounded run on a VirtualTimeScheduler, and a marble run of one
 * goal that records a stream error as an event.
 */
import { from, take, toArray, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import type { Tool } from '../../mind/tool.js';
import type { AgentOptions } from '../../streams/createAgent.js';
import type { AgentEvent } from '../../streams/events.js';
import { agentEvents, createTestAgent, createTestScheduler, goalStimulus } from '../../streams/testing.js';

/** A semantic tool about the weather (it matches "weather forecast rain temperature …" goals); `changes` replace its fields. */
export function weatherTool(changes: Partial<Tool<{ city: string }>> = {}): Tool<{ city: string }> {
  return {
    name: 'weather_lookup',
    description: 'Look up the weather for a city',
    keywords: ['weather', 'forecast', 'rain', 'temperature', 'sunny', 'cloudy', 'wind', 'humidity', 'storm', 'snow', 'climate', 'degrees', 'celsius', 'umbrella', 'sky', 'cold', 'hot'],
    danger: 'safe',
    capabilities: ['net.read'],
    input: z.object({ city: z.string().min(1) }),
    scoring: { kind: 'semantic', threshold: 0.3, multiplier: 2 },
    propose: () => ({ city: 'Paris' }),
    execute: () => ({ ok: true, summary: 'sunny' }),
    ...changes,
  };
}

/** Runs the agent on `goal` on virtual time; at most `maxEvents` events, so a run that would never end still returns. */
export function runBounded(options: AgentOptions, goal: string, maxEvents = 500): AgentEvent[] {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, options);
  let events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus(goal)])] })
    .pipe(take(maxEvents), toArray())
    .subscribe((all) => (events = all));
  scheduler.flush();
  return events;
}

/**
 * Runs `goal` in a marble run (up to 6 cycles, no stall unless `options.config`
 * says otherwise); returns every event, a stream error as a `stream-error` one.
 */
export function runGoal(t: { deepEqual: (a: unknown, b: unknown) => void }, options: AgentOptions, goal = 'Find moons of Mars'): AgentEvent[] {
  const scheduler = createTestScheduler((a, b) => t.deepEqual(a, b));
  const events: AgentEvent[] = [];
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { ...options, config: { maxCycles: 6, stallThreshold: 1_000_000, ...options.config } });
    agentEvents(agent, { inputs: [cold('a|', { a: goalStimulus(goal) })] }).subscribe({
      next: (e) => events.push(e),
      error: (error) => events.push({ kind: 'stream-error', message: String(error) } as unknown as AgentEvent),
    });
  });
  return events;
}
