/**
 * What createAgent and its `run` take ({@link AgentOptions},
 * {@link AgentSources}), and the checks createAgent makes on its own options,
 * so that a bad option is an error naming it rather than a TypeError from
 * deep inside: the config is
 * validated like resolveConfig's layers (a {@link ConfigError},
 * `config createAgent options: maxCycles: …`), and the lists are checked for
 * their shape, naming the option and the index: `watchers[0] is not a
 * function (got 42)`; the other options for their kind (`firstSeq must be a
 * whole number ≥ 0 (got NaN)`). What a tool or skill must be is its registry's to
 * check; its errors are prefixed with the index (`tools[1]: …`). The psyche
 * option is mind/psyche.ts's to check, in the same words
 * (`psyche.shadow must be an array of patterns … (got "nope")`).
 */
import type { Observable, OperatorFunction, SchedulerLike } from 'rxjs';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import type { PsycheOptions } from '../mind/psycheOptions.js';
import type { Skill } from '../mind/skills.js';
import type { Tool } from '../mind/tool.js';
import { describeValue } from '../mind/describeValue.js';
import { AgentConfig, resolveConfig, type AgentConfigInput } from './config.js';
import { isObject } from './isObject.js';
import type { Cycle, Watcher } from './cycle.js';
import type { EffectLog } from './effects.js';
import type { Draft } from './events.js';
import type { CommandHandler, Runtime } from './runtime.js';
import type { Signal, Stimulus } from './signals.js';

/**
 * What enters a pass: a signal, or a stimulus perceive rejected. `pastMaxCycles`
 * marks the one taken in after `maxCycles` while input was still open, whose
 * pass brings the `maxCycles` warning: a recorder keeps the mark (the signal's
 * `meta.pastMaxCycles`, a stimulus's `pastMaxCycles`), for a replay, which
 * cannot know when the recorded input ended, to warn at the same pass.
 */
export type Entering = ({ signal: Signal } | { rejected: Draft<'rejected'> }) & { pastMaxCycles?: true };

/** An `onEnter` hook: called with what enters a pass; may return the item it marked (see `AgentOptions.onEnter`). */
export type EnterHook = (entering: Entering) => Entering | void;

/** The default stages, for building a custom cycle. */
export interface Stages {
  observe: OperatorFunction<Cycle, Cycle>;
  orient: OperatorFunction<Cycle, Cycle>;
  /** Plans for the goal and steers decide toward the plan's next step. */
  plan: OperatorFunction<Cycle, Cycle>;
  decide: OperatorFunction<Cycle, Cycle>;
  /** The psyche's shadow veto and the skills' verifiers. */
  verify: OperatorFunction<Cycle, Cycle>;
  act: OperatorFunction<Cycle, Cycle>;
  consolidate: OperatorFunction<Cycle, Cycle>;
}


export interface AgentOptions {
  /** Configuration; missing keys take their defaults. */
  config?: AgentConfigInput;
  /** The only clock (a `now()` that gives no finite number is said once, and its last finite time held: streams/schedulerClock.ts). Default: asyncScheduler; pass a TestScheduler for marble tests. */
  scheduler?: SchedulerLike;
  /** Session id stamped on every event. Default `session-1`. */
  session?: string;
  /**
   * A mind to run (e.g. restored from a store). Default: a fresh mind with
   * the built-in tools. It keeps the config it was made with (`new Mind({
   * config })`): a setting of the mind's given in `config` with another value
   * is refused (a TypeError naming it), as it would be ignored.
   */
  mind?: Mind;
  /** Extra tools, registered after the built-ins. */
  tools?: Tool[];
  /** Replace the cycle: receives the default stages, returns the chain (e.g. with a veto before act). */
  cycle?: (stages: Stages, runtime: Runtime) => OperatorFunction<Cycle, Cycle>;
  /**
   * Stateful operators over finished passes, applied in order after the
   * built-in ones: followPlans, reflect and loop detection (`interveneOnLoops`,
   * off with `loopDetection.enabled: false`). A watcher that errors (throws),
   * emits something other than a cycle, or completes early (e.g. `first()`) is dropped from the chain for the rest
   * of the run: a critical `error` event names it (`watchers[2] (name)`), the
   * pass it failed on goes on, and later passes bypass it; the run carries on.
   * A watcher passes each pass on as it comes, once (a `map`, a `tap`): one
   * it filters out or holds back goes on without it, and what it emits
   * beyond that is ignored, each with a `warning` the first time.
   */
  watchers?: Watcher[];
  /** Skills run before act, in descending priority, after the built-in policy skill (priority 100). */
  skills?: Skill[];
  /**
   * The psyche's archetypes (at least one) and shadow patterns (defaults: see
   * mind/psyche.ts); ignored when the mind has a psyche already, but checked
   * even then: a bad one throws a TypeError naming its full path and what it
   * must be (`psyche.archetypes[2].weight must be a number in [0, 1] (got 2)`).
   */
  psyche?: PsycheOptions;
  /**
   * Extra command handlers (by command name). Command signals from outside
   * (stdin, WebSocket) may name them; a name the agent has no handler for is
   * rejected, naming the accepted ones.
   */
  commands?: Iterable<[string, CommandHandler]>;
  /** Sequence number of the first run's first event (later runs continue the sequence). Default 1. */
  firstSeq?: number;
  /**
   * True when the run re-runs a recording (`ooda replay`, crash recovery on
   * resume): tools see it as `ToolContext.replaying` and must not act on the
   * world again, and a stop does not cut its `inputs` and `signals` (they
   * are what the run took in, the passes it drained after its stop
   * included). Default false.
   */
  replaying?: boolean;
  /**
   * Where tools' effects (`ToolContext.effect`) are recorded, or read back
   * when `replaying` (streams/effects.ts). A store's Persistence and replay
   * pass it; default none: effects run and nothing is recorded.
   */
  effects?: EffectLog;
  /**
   * Called as each signal (or rejected stimulus) begins its pass, in processing
   * order and at its scheduler time: exactly what a store must record for a
   * replay (`AgentSources.signals` with `drive: false`) to reproduce the run.
   * A recorder that marks what it recorded (`meta.snapshotFailed`) returns the
   * marked item, which is then what takes the pass, so the run and its replay
   * report the same. A hook that throws is reported as a critical `error`
   * event on that pass (`onEnter failed: …; the pass went on`); the stream
   * never errors. A list of hooks is called in order, each with what the
   * ones before it let take the pass (a marked item, or the item as it
   * entered); one that throws is reported (`onEnter[1] failed: …`) and the
   * next ones are still called (Persistence.agentOptions puts its recorder
   * last, so it records what took the pass).
   */
  onEnter?: EnterHook | readonly EnterHook[];
}

/**
 * A source that errors ends there with a `rejected` event naming it (`inputs[0]
 * failed: …`), and an item it should not have emitted is rejected, naming it
 * (streams/sourceEntries.ts); the run goes on either way.
 */
export interface AgentSources {
  /** Finite inputs (stdin, a file): the run may end once they have all ended. */
  inputs?: Observable<Stimulus>[];
  /** Finite, trusted, already-built signals (a replayed recording); they count as inputs. */
  signals?: Observable<Signal>[];
  /**
   * Inputs that never end (a WebSocket server's clients), checked as `inputs`
   * are; the run does not wait for them to end: at `maxCycles` a `keepAlive`
   * run stops once its finite inputs have been read to their end.
   */
  live?: Observable<Stimulus>[];
  /** Signals that never end the run by themselves (heartbeat, sensors); stopped first on shutdown. Each is checked as `agent.inject` checks a signal. */
  ambient?: Observable<Signal>[];
  /** Keep running after inputs end while there is no work (a WebSocket server is listening), until `maxCycles` or a stop. */
  keepAlive?: boolean;
  /** Feed exactly these signals and never drive ticks (replay). */
  drive?: boolean;
  /**
   * While the latest value is true the driver starts no new cycle and ambient
   * signals are skipped, not queued (a sink's backpressure: a saturated store
   * then gets no rows from heartbeats or sensor readings either). A hold that
   * errors releases the run; a value other than true or false holds it not.
   */
  hold?: Observable<boolean>;
}

/** The `config` option, resolved with its defaults; throws a ConfigError naming the bad key. */
export function configOption(input: AgentConfigInput | undefined): AgentConfig {
  return resolveConfig([{ origin: 'createAgent options', values: (input ?? {}) as Record<string, unknown> }]);
}

/**
 * With a mind of the caller's, the settings of `config` that are the mind's
 * (`stallThreshold`, `maxBacktrackAttempts`, `tools.shellExec`, …:
 * mind/config.ts) must be its own: a mind keeps the config it was made with,
 * so another value would be silently ignored. Only what `config` gives is
 * compared (a section such as `tools` key by key; `undefined` gives nothing).
 * Throws a TypeError naming the first setting that differs.
 */
export function checkMindConfig(mind: Mind, input: AgentConfigInput | undefined, config: AgentConfig): void {
  if (input === undefined) return;
  const differing = (given: Record<string, unknown>, resolved: Record<string, unknown>, own: Record<string, unknown>, path: string): string | undefined => {
    for (const [key, value] of Object.entries(given)) {
      if (value === undefined) continue;
      const [ours, theirs] = [resolved[key], own[key]];
      if (isObject(value) && isObject(ours) && isObject(theirs)) {
        const inner = differing(value, ours, theirs, `${path}${key}.`);
        if (inner) return inner;
      } else if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        return `config.${path}${key}: ${JSON.stringify(ours)} is not the given mind's (${JSON.stringify(theirs)}): a mind keeps the config it was made with; pass it to new Mind({ config })`;
      }
    }
    return undefined;
  };
  const mindKeys = new Set(Object.keys(MindConfig.shape));
  const given = Object.fromEntries(Object.entries(input).filter(([key]) => mindKeys.has(key)));
  const problem = differing(given, config, mind.config, '');
  if (problem) throw new TypeError(problem);
}

/** A list option (`watchers`, `tools`, `skills`): an array whose items pass `isItem`, else a TypeError naming the option and index. */
export function listOption<T>(name: string, value: readonly T[] | undefined, expected: string, isItem: (item: unknown) => boolean): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${name} must be an array (got ${describeValue(value)})`);
  value.forEach((item: unknown, i) => {
    if (!isItem(item)) throw new TypeError(`${name}[${i}] is not ${expected} (got ${describeValue(item)})`);
  });
  return value;
}

/** Registers each item of a list option, prefixing a registry's error with the option and index (`skills[1]: …`). */
export function registerEach<T>(name: string, items: readonly T[], register: (item: T) => unknown): void {
  items.forEach((item, i) => {
    try {
      register(item);
    } catch (error) {
      throw new Error(`${name}[${i}]: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  });
}

/** Every option createAgent takes (the record makes the compiler name one added to {@link AgentOptions} and not here). */
const OPTION_KEYS = Object.keys({
  config: true, scheduler: true, session: true, mind: true, tools: true, cycle: true, watchers: true,
  skills: true, psyche: true, commands: true, firstSeq: true, replaying: true, effects: true, onEnter: true,
} satisfies Record<keyof AgentOptions, true>);

/**
 * The options as a whole: an object whose keys are all options, else a
 * TypeError naming the key, so a misspelt `tool: [weather]` or `watcher` is
 * not silently left out (`createAgent takes no option "tool" (it takes …)`),
 * as `run()` refuses a source it does not take.
 */
export function checkOptionKeys(options: AgentOptions): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`createAgent takes an object of options (${OPTION_KEYS.join(', ')}) (got ${describeValue(options)})`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) throw new TypeError(`createAgent takes no option ${JSON.stringify(key)} (it takes ${OPTION_KEYS.join(', ')})`);
  }
}

/**
 * The single-valued options (`scheduler`, `session`, `mind`, `cycle`,
 * `firstSeq`, `replaying`, `effects`, `onEnter`), each checked for its kind; throws a
 * TypeError naming the option and what it got: `scheduler must be a
 * SchedulerLike (with now() and schedule()) (got an object)`.
 */
export function checkScalarOptions(options: AgentOptions): void {
  const { scheduler, session, mind, cycle, firstSeq, replaying, effects, onEnter } = options as Record<keyof AgentOptions, unknown>;
  const check = (name: string, value: unknown, ok: boolean, expected: string): void => {
    if (value !== undefined && !ok) throw new TypeError(`${name} must be ${expected} (got ${describeValue(value)})`);
  };
  const methods = scheduler as { now?: unknown; schedule?: unknown } | null;
  check('scheduler', scheduler, typeof methods?.now === 'function' && typeof methods.schedule === 'function', 'a SchedulerLike (with now() and schedule())');
  check('session', session, typeof session === 'string' && session.trim() !== '', 'a non-empty string');
  check('mind', mind, mind instanceof Mind, 'a Mind');
  check('cycle', cycle, typeof cycle === 'function', 'a function (stages, runtime) => operator');
  check('firstSeq', firstSeq, Number.isSafeInteger(firstSeq) && (firstSeq as number) >= 0, 'a whole number ≥ 0');
  check('replaying', replaying, typeof replaying === 'boolean', 'true or false');
  check('onEnter', onEnter, typeof onEnter === 'function' || Array.isArray(onEnter), 'a function or an array of functions');
  if (Array.isArray(onEnter)) {
    onEnter.forEach((hook: unknown, i) => {
      if (typeof hook !== 'function') throw new TypeError(`onEnter[${i}] must be a function (got ${describeValue(hook)})`);
    });
  }
  const log = effects as { record?: unknown; recorded?: unknown } | null;
  const optionalFunction = (value: unknown) => value === undefined || typeof value === 'function';
  check('effects', effects, typeof log === 'object' && log !== null && optionalFunction(log.record) && optionalFunction(log.recorded), 'an object with optional record and recorded functions');
}

/** The operator a `cycle` option returned; a TypeError when it returned something else. */
export function cycleOperator<T>(operator: T): T {
  if (typeof operator !== 'function') throw new TypeError(`cycle must return an operator function (it returned ${describeValue(operator)})`);
  return operator;
}

/** The `commands` option as an array of `[name, handler]` pairs, each checked; throws naming the index. */
export function commandsOption(value: Iterable<[string, CommandHandler]> | undefined): [string, CommandHandler][] {
  if (value === undefined) return [];
  if (!isIterable(value) || typeof value === 'string') {
    throw new TypeError(`commands must be an iterable of [name, handler] pairs, e.g. a Map (got ${describeValue(value)})`);
  }
  return [...value].map((entry: unknown, i) => {
    if (!Array.isArray(entry) || entry.length !== 2) throw new TypeError(`commands[${i}] is not a [name, handler] pair (got ${describeValue(entry)})`);
    // The name is the command table's to check (streams/commandTable.ts).
    const [name, handler] = entry as [string, unknown];
    if (typeof handler !== 'function') throw new TypeError(`commands[${i}] (${name}): the handler is not a function (got ${describeValue(handler)})`);
    return [name, handler as CommandHandler];
  });
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return value !== null && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}
