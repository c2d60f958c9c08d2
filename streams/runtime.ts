/**
 * The runtime the operators work against: the mind, the configuration, the
 * injected scheduler (the only clock) and the commands that reach beyond the
 * mind (stop, save, and the ones extensions add).
 */
import { Subject, type SchedulerLike } from 'rxjs';
import type { Mind } from '../mind/mind.js';
import { commandTable } from './commandTable.js';
import type { AgentConfig } from './config.js';
import type { Cycle } from './cycle.js';
import type { EffectLog } from './effects.js';
import type { Draft } from './events.js';

/**
 * Runs a command; returns the line reported in the `command` event (a result
 * that is not a string is reported as its JSON: see streams/commandTable.ts).
 */
export type CommandHandler = (runtime: Runtime, cycle: Cycle) => string;

export interface Runtime {
  readonly mind: Mind;
  readonly config: AgentConfig;
  readonly scheduler: SchedulerLike;
  /** Scheduler time in ms (in an agent, the time of the pass in flight: see streams/createAgent.ts). */
  now(): number;
  /** The scheduler's time in ms as it is read now, not a pass's (in an agent, never other than a finite number: streams/schedulerClock.ts). */
  clock(): number;
  /** Command handlers by name (names checked as they are registered); `pause`, `resume`, `status` and `consolidate` are built in. */
  readonly commands: Map<string, CommandHandler>;
  /**
   * Emits when the run gives up on the pass in flight (it stopped while the
   * pass waited on a tool): the tool's timeout is cancelled and its late
   * result discarded.
   */
  readonly abandon$: Subject<void>;
  /** The tool the pass in flight waits on, while it does (act sets it), and the events that pass recorded: a pass abandoned meanwhile names the tool and keeps them. */
  waitingOn: { tool: string; goalId: string; events: readonly Draft[] } | undefined;
  /** The pass begun last (feedback sets it): one abandoned while it waits on anything else than a tool (a stage's promise, an operator of the cycle) keeps the events it recorded. */
  currentPass?: Cycle;
  /** True while a recording is re-run (replay, crash recovery): tools must not act on the world again (see `ToolContext.replaying`). */
  readonly replaying: boolean;
  /** Where tools' effects are recorded (a live run with a store) or read back (a re-run): see streams/effects.ts. */
  readonly effects: EffectLog;
}

export function createRuntime(options: {
  mind: Mind;
  config: AgentConfig;
  scheduler: SchedulerLike;
  commands?: Iterable<[string, CommandHandler]>;
  /** The scheduler's time. Default: `scheduler.now()`. */
  clock?: () => number;
  /** The clock the stages read. Default: `clock`. */
  now?: () => number;
  replaying?: boolean;
  effects?: EffectLog;
}): Runtime {
  const { scheduler } = options;
  const clock = options.clock ?? (() => scheduler.now());
  return {
    mind: options.mind,
    config: options.config,
    scheduler,
    now: options.now ?? clock,
    clock,
    commands: commandTable(options.commands ?? []),
    abandon$: new Subject<void>(),
    waitingOn: undefined,
    replaying: options.replaying ?? false,
    effects: options.effects ?? {},
  };
}
