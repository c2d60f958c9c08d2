/**
 * The contexts tools propose inputs in (the mind, the goal, the mind's
 * configuration and the scheduler's clock) and run in (the same, with the
 * run's signals, a {@link ToolRunScope} on the runtime's scheduler, and its
 * recorded effects, operators/toolEffect.ts).
 */
import type { Goal } from '../mind/goals.js';
import type { MindConfig } from '../mind/config.js';
import type { Mind } from '../mind/mind.js';
import type { ProposalContext, ToolContext } from '../mind/tool.js';
import type { Runtime } from '../streams/runtime.js';
import { runEffect } from './toolEffect.js';
import type { ToolRunScope } from './toolRunScope.js';

export function proposalContext(runtime: Runtime, goal: Goal): ProposalContext {
  return { mind: runtime.mind, goal, config: runtime.mind.config, now: runtime.now, replaying: runtime.replaying };
}

export function toolContext(runtime: Runtime, goal: Goal, scope: ToolRunScope, tool: string): ToolContext {
  return new RunContext(runtime, goal, scope, tool);
}

/**
 * Made per action, so a class: its `signal` is read from the scope only when
 * the tool reads it (see toolRunScope.ts), through a getter of its own, so a
 * spread copy (`{ ...ctx, goal }`, a tool calling another) takes the signal
 * too; the scope itself is a private field, out of any copy's reach.
 */
class RunContext implements ToolContext {
  readonly mind: Mind;
  readonly config: MindConfig;
  readonly now: () => number;
  readonly replaying: boolean;
  /** A function of its own, not a method: tools take it out of the context (`{ timeout }`). */
  readonly timeout: (ms: number) => AbortSignal;
  /** A function of its own too (`{ effect }`); see operators/toolEffect.ts. */
  readonly effect: ToolContext['effect'];
  /** An enumerable getter of the instance's own (see the constructor). */
  declare readonly signal: AbortSignal;
  readonly #scope: ToolRunScope;

  constructor(
    runtime: Runtime,
    readonly goal: Goal,
    scope: ToolRunScope,
    tool: string,
  ) {
    this.mind = runtime.mind;
    this.config = runtime.mind.config;
    this.now = runtime.now;
    this.replaying = runtime.replaying;
    this.#scope = scope;
    this.timeout = (ms) => scope.timeout(ms);
    const run = { runtime, scope, tool, cycle: runtime.mind.cycle };
    this.effect = (name, work, options) => runEffect(run, name, work, options);
    Object.defineProperty(this, 'signal', SIGNAL);
  }

  /** The run's signal, for {@link SIGNAL}. */
  static signalOf(context: RunContext): AbortSignal {
    return context.#scope.signal;
  }
}

/** One getter shared by every context (a getter made per context gave each its own hidden class: 8 % slower cycles). */
const SIGNAL: PropertyDescriptor = {
  get(this: RunContext) {
    return RunContext.signalOf(this);
  },
  enumerable: true,
};
