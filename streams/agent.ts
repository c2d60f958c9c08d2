/**
 * What createAgent returns: the agent's runtime, mind and config, and the
 * calls that run it, stop it and feed it signals (streams/createAgent.ts).
 */
import type { Connectable } from 'rxjs';
import type { Mind } from '../mind/mind.js';
import type { SkillRegistry } from '../mind/skills.js';
import type { AgentSources } from './agentOptions.js';
import type { AgentConfig } from './config.js';
import type { AgentEvent } from './events.js';
import type { Runtime } from './runtime.js';
import type { InjectableSignal } from './signals.js';

export interface Agent {
  readonly runtime: Runtime;
  readonly mind: Mind;
  readonly config: AgentConfig;
  readonly session: string;
  /** The skills verifying actions before act; `agent.skills.register(skill)` adds one at any time. */
  readonly skills: SkillRegistry;
  /**
   * Runs the agent over the sources. Returns one shared event stream: subscribe
   * every sink, then call `connect()`.
   *
   * One run at a time: a run lasts from `run()` until its stream completes
   * (or its connection is unsubscribed), and calling `run()` meanwhile throws;
   * so does running another agent given the same `mind` meanwhile.
   * A later run continues the session where the last one ended: its events'
   * `seq` follow the last one's, and the mind (cycle count, goals, memory) is
   * as it was left, with the default watchers' state (loop-detection windows,
   * reflection's counts: the mind's extensions); a watcher of your own that
   * keeps state in its operator starts it anew with each run.
   */
  run(sources?: AgentSources): Connectable<AgentEvent>;
  /**
   * Stops the live run gracefully: sources first, in-flight work drains, then
   * the stream completes with a `stopped` session event carrying `reason`
   * (default `stopped`). A run is live from `run()` on, before `connect()`
   * too: a run stopped before it is connected emits `started` then `stopped`
   * once connected, and takes in nothing but the signals injected before.
   * Returns true when it stopped a run; false when there was none to stop (no
   * `run()` yet, the last run's stream has completed, or the run is already
   * stopping), when it does nothing: a later `run()` is not affected. A
   * reason that is not a string (an Error) throws a TypeError and stops nothing.
   */
  stop(reason?: string): boolean;
  /**
   * Feeds a signal into the agent as internal input: the runtime's own types
   * (tick, feedback, error, heartbeat) are accepted too, but nothing injected
   * breaks the stream (see streams/injection.ts). A missing `depth` is 0 and
   * a missing `meta` is `{ source: 'inject' }`; a value that is not an
   * object, whose `type` is no signal type, whose envelope is malformed,
   * that (for goal, fact, input, sensor, command) fails the signal schema,
   * that names a command the agent has no handler for, or
   * whose body (for heartbeat, feedback, error) lacks a field its events carry
   * becomes a `rejected` event (source `inject`) naming what was wrong, as
   * perceive reports bad input.
   * Signals injected before the run's stream is connected (or before `run()`)
   * are queued and processed, in order, as soon as it is connected. Every
   * accepted signal is processed before the run decides it has nothing left
   * to do (signals injected one after another in the same task all are); a
   * run without `keepAlive` whose inputs have ended stops once idle, after
   * which `inject` accepts nothing. Returns whether the signal was accepted
   * (false when it is rejected, or once the run has stopped).
   */
  inject(signal: InjectableSignal): boolean;
}
