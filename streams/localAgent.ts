/**
 * An agent in this process for the inspecting commands (`ooda plan`,
 * `ooda reflect`, `ooda repl`): built from knowledge files and goals, run for
 * a number of cycles, then asked questions through its commands.
 *
 * The commands take an {@link Agent}, however it was made: a restored session
 * only needs to hand them an agent built on its restored mind.
 */
import { lastValueFrom } from 'rxjs';
import { intake } from '../operators/intake.js';
import type { AgentConfig } from './config.js';
import { createAgent, type Agent, type AgentOptions } from './createAgent.js';
import { beginCycle } from './cycle.js';
import type { AgentEvent, Draft } from './events.js';
import { knowledgeAndGoals } from './program.js';
import type { Signal } from './signals.js';
import { unknownCommand } from './validateSignal.js';

export interface LocalAgentOptions {
  config: AgentConfig;
  /** NDJSON files of signals (usually facts), read first. */
  files: string[];
  goals: string[];
  /** Cycles to run before resolving. */
  cycles: number;
  session?: string;
  agent?: Omit<AgentOptions, 'config' | 'session'>;
  /** Sees every event of the run (e.g. to report rejected lines). */
  onEvent?: (event: AgentEvent) => void;
}

/** Builds an agent, loads the files and goals, runs `cycles` cycles and resolves once the run has ended. */
export async function runLocalAgent(options: LocalAgentOptions): Promise<Agent> {
  const agent = createAgent({
    ...options.agent,
    config: { ...options.config, maxCycles: options.cycles },
    session: options.session ?? 'local',
  });
  const events$ = agent.run({ inputs: [knowledgeAndGoals(options.files, options.goals)] });
  if (options.onEvent) events$.subscribe(options.onEvent);
  const done = lastValueFrom(events$, { defaultValue: undefined });
  events$.connect();
  await done;
  return agent;
}

/**
 * Runs one command on an agent that is not running (as its `command` signal
 * would), a built-in one or one the agent was given (`AgentOptions.commands`),
 * returning its result and events; a name the agent has no handler for
 * throws, naming the accepted ones, as a command signal naming it is rejected.
 */
export function runCommand(agent: Agent, command: string): { result: string; events: Draft[] } {
  const { runtime } = agent;
  const signal: Signal = { type: 'command', command, depth: 0, meta: { source: 'cli' }, at: runtime.now() };
  const unknown = unknownCommand(signal, runtime.commands);
  if (unknown) throw new Error(`runCommand: ${unknown}`);
  const cycle = beginCycle(runtime, signal);
  intake(runtime, cycle);
  const reported = cycle.events.find((e): e is Draft<'command'> => e.kind === 'command');
  return { result: reported?.result ?? '', events: cycle.events };
}
