/**
 * ooda-rx/testing: what you need to marble-test your own cycles on virtual
 * time with any test runner (this example is test/testingExample.test.ts).
 *
 * ```ts
 * import test from 'ava';
 * import { map } from 'rxjs';
 * import { agentEvents, createTestAgent, goalStimulus, runMarbles } from 'ooda-rx/testing';
 *
 * test('one whole cycle', (t) => {
 *   runMarbles((actual, expected) => t.deepEqual(actual, expected), ({ cold, expectObservable }, scheduler) => {
 *     const agent = createTestAgent(scheduler, { config: { maxCycles: 1 } });
 *     const input$ = cold('a 19ms |', { a: goalStimulus('Find moons of Mars') });
 *     expectObservable(agentEvents(agent, { inputs: [input$] }).pipe(map((e) => e.kind))).toBe('(spgorndan) 9ms (s|)', {
 *       s: 'session', p: 'perceived', g: 'goal', o: 'observation', r: 'orientation', n: 'plan', d: 'decision', a: 'action',
 *     });
 *   });
 * });
 * ```
 *
 * Marble runs are synchronous: a tool whose `execute` is async settles only
 * after `run()` has flushed virtual time, so the assertion sees the pass stop
 * before its tool ran (session, perceived, goal), the rest of it arrives after
 * `run()` returns as a timeout stamped at time 0, and the run never stops.
 * With async tools, use a `VirtualTimeScheduler` and {@link flushSettled},
 * which lets promises settle before each virtual step.
 */
import { map, Observable, type OperatorFunction, type SchedulerLike, type VirtualTimeScheduler } from 'rxjs';
import { TestScheduler, type RunHelpers } from 'rxjs/testing';
import { MAX_TIMER_MS } from '../mind/config.js';
import { describeValue } from '../mind/describeValue.js';
import { checkNumberOption, numberBetween, wholeNumber } from '../mind/optionCheck.js';
import { createAgent, type Agent, type AgentOptions, type AgentSources } from './createAgent.js';
import { isObject } from './isObject.js';
import { settledStep } from './settledStep.js';
import type { AgentEvent } from './events.js';
import type { Stimulus } from './signals.js';

export { TestScheduler, type RunHelpers };

export type DeepEqual = (actual: unknown, expected: unknown) => void;

/** A TestScheduler whose assertions use your runner's deep-equal. */
export function createTestScheduler(deepEqual: DeepEqual): TestScheduler {
  return new TestScheduler((actual, expected) => deepEqual(actual, expected));
}

/** Runs `callback` inside `TestScheduler.run` (virtual time), asserting with `deepEqual`. */
export function runMarbles<T>(deepEqual: DeepEqual, callback: (helpers: RunHelpers, scheduler: TestScheduler) => T): T {
  const scheduler = createTestScheduler(deepEqual);
  return scheduler.run((helpers) => callback(helpers, scheduler));
}

/**
 * An agent bound to the given scheduler with seeded ids: session `test`,
 * seed 1 (a `mind` of yours keeps its own), `heartbeatMs` 0. Pass options to
 * change any of it. No agent beats
 * by itself: for heartbeats, pass `ambient: [heartbeat(ms, scheduler)]` to
 * {@link agentEvents}.
 */
export function createTestAgent(scheduler: SchedulerLike, options: AgentOptions = {}): Agent {
  const { config = {} } = options;
  return createAgent({
    session: 'test',
    ...options,
    scheduler,
    // A config that is no object goes to createAgent as is, to be refused there (spread, 5 or "x" would silently be no config). A mind of the caller's keeps its own seed.
    config: isObject(config) ? { ...(options.mind ? {} : { seed: 1 }), heartbeatMs: 0, ...config } : config,
  });
}

/** The agent's event stream for the sources, connected when subscribed (for `expectObservable`). */
export function agentEvents(agent: Agent, sources: AgentSources = {}): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    const events$ = agent.run(sources);
    const subscription = events$.subscribe(subscriber);
    subscription.add(events$.connect());
    return subscription;
  });
}

/** A stimulus carrying a signal value, as a source would deliver it. */
export function stimulus(value: unknown, source = 'test'): Stimulus {
  return { source, value };
}

/** A goal stimulus. */
export function goalStimulus(description: string, extra: Record<string, unknown> = {}): Stimulus {
  return stimulus({ type: 'goal', description, ...extra });
}

/** A fact stimulus. */
export function factStimulus(subject: string, predicate: string, object: string): Stimulus {
  return stimulus({ type: 'fact', subject, predicate, object });
}

/** Projects events to some of their fields, for readable marble values. */
export function pick<K extends string>(...keys: K[]): OperatorFunction<AgentEvent, Partial<Record<K | 'kind', unknown>>> {
  return map((event) => {
    const out: Record<string, unknown> = { kind: event.kind };
    for (const key of keys) if (key in event) out[key] = (event as unknown as Record<string, unknown>)[key];
    return out as Partial<Record<K | 'kind', unknown>>;
  });
}

/**
 * Runs a virtual-time scheduler to its end, like its `flush()`, but lets
 * pending promises settle before each step (one macrotask turn, and as long
 * as a tool's real work holds the clock: its `ctx.effect` I/O, a promise of
 * the thread pool, up to `realWorkMs` of real time, 2 000; see
 * streams/realWork.ts), so an async tool's result arrives at the virtual time
 * it started, as a fast tool's does on real time; a tool that never settles
 * still times out at `toolTimeoutMs`, once `realWorkMs` has passed.
 * At most `maxSteps` (1 000 000) steps: a run that never ends is an error.
 * A scheduler that is no virtual-time one (asyncScheduler: there is nothing to
 * flush), a TestScheduler (its marble assertions are checked only by its own
 * flush, so a wrong one would pass) and a `maxSteps` that is no whole number
 * ≥ 1 (NaN would lift the bound) are refused with a TypeError or RangeError
 * naming them.
 */
export async function flushSettled(scheduler: VirtualTimeScheduler, options: { maxSteps?: number; realWorkMs?: number } = {}): Promise<void> {
  const virtual = scheduler as Partial<VirtualTimeScheduler> | null;
  if (typeof virtual?.frame !== 'number' || typeof virtual.maxFrames !== 'number' || !Array.isArray(virtual.actions)) {
    throw new TypeError(`flushSettled: expected a VirtualTimeScheduler (with frame, maxFrames and its actions), got ${describeValue(scheduler)}`);
  }
  if (scheduler instanceof TestScheduler) {
    throw new TypeError(
      'flushSettled: got a TestScheduler, which checks its expectObservable and expectSubscriptions assertions only in its own flush() or run(): they would never be checked. Use a VirtualTimeScheduler and assert on the events you collect',
    );
  }
  checkNumberOption('flushSettled', 'maxSteps', options.maxSteps, wholeNumber(1), 'a whole number of steps ≥ 1');
  checkNumberOption('flushSettled', 'realWorkMs', options.realWorkMs, numberBetween(0, MAX_TIMER_MS), `a number of ms from 0 to ${MAX_TIMER_MS}`);
  const { maxSteps = 1_000_000, realWorkMs } = options;
  let steps = 0;
  const limit = (): boolean => {
    if (steps++ >= maxSteps) throw new Error(`flushSettled: still running after ${maxSteps} steps (virtual time ${scheduler.frame})`);
    return false;
  };
  while (await settledStep(scheduler, limit, realWorkMs));
}
