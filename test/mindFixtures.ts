/**
 * Shared fixtures for the mind tests: the demo knowledge base, a tool context,
 * and a whole agent run on virtual time collected into an array.
 */
import { readFileSync } from 'node:fs';
import { asyncScheduler, from } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { Mind } from '../mind/mind.js';
import type { Goal } from '../mind/goals.js';
import type { ToolContext, ToolOutput } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import { runTool } from '../mind/toolRun.js';
import type { Decision } from '../mind/toolSelection.js';
import { runEffect } from '../operators/toolEffect.js';
import { toolRunScope, type ToolRunScope } from '../operators/toolRunScope.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent, type AgentOptions } from '../streams/createAgent.js';
import type { EffectLog } from '../streams/effects.js';
import type { AgentEvent } from '../streams/events.js';
import { createRuntime } from '../streams/runtime.js';
import type { Signal, Stimulus } from '../streams/signals.js';

/** The demo knowledge base's facts. */
export function demoFacts(): { subject: string; predicate: string; object: string }[] {
  return readFileSync(new URL('../demo/knowledge.ndjson', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { subject: string; predicate: string; object: string });
}

/** Whether the mind's state goes through JSON and back, as a snapshot and a resume take it. */
export const restorable = (mind: Mind): boolean => Mind.fromJSON(JSON.parse(JSON.stringify(mind.toJSON()))) instanceof Mind;

/** A mind with the built-in tools and the demo knowledge base. */
export function demoMind(): Mind {
  const mind = new Mind({ tools: builtinTools() });
  for (const f of demoFacts()) mind.graph.add(f.subject, f.predicate, f.object);
  return mind;
}

/**
 * The context a tool runs in, for a goal of the mind, at time `at`, with the run's signals from `scope` (real time by default)
 * and its effects run as act runs them for `tool` (operators/toolEffect.ts), re-run ones when `replaying` (none recorded).
 */
export function contextFor(
  mind: Mind,
  goal: Goal,
  at = 0,
  scope: ToolRunScope = toolRunScope(asyncScheduler),
  { tool = 'a_tool', replaying = false, effects = {} }: { tool?: string; replaying?: boolean; effects?: EffectLog } = {},
): ToolContext {
  const runtime = createRuntime({ mind, config: AgentConfig.parse({}), scheduler: asyncScheduler, replaying, effects });
  return {
    mind,
    goal,
    config: mind.config,
    now: () => at,
    replaying,
    signal: scope.signal,
    timeout: (ms) => scope.timeout(ms),
    effect: (name, work, options) => runEffect({ runtime, scope, tool, cycle: mind.cycle }, name, work, options),
  };
}

/** Runs a decided tool as act does (asynchronously, on real time), ending its scope (releasing its timers) once it settles; its effects go to `effects`. */
export function runDecision(mind: Mind, goal: Goal, decision: Decision, effects: EffectLog = {}): Promise<ToolOutput> {
  const scope = toolRunScope(asyncScheduler);
  return Promise.resolve()
    .then(() => runTool(decision, contextFor(mind, goal, 0, scope, { tool: decision.tool, effects })))
    .finally(() => scope.end());
}

/** Fact signals for the demo knowledge base. */
export function demoFactSignals(): Signal[] {
  return demoFacts().map((f) => ({ type: 'fact', ...f, confidence: 1, depth: 0, meta: { source: 'demo' } }));
}

/** Runs an agent over signals on virtual time (synchronous tools only) and returns every event. */
export function runOnVirtualTime(signals: Signal[], options: AgentOptions = {}): { events: AgentEvent[]; mind: Mind } {
  const scheduler = new TestScheduler(() => undefined);
  const agent = createAgent({ session: 'test', ...options, scheduler, config: { heartbeatMs: 0, ...options.config } });
  const events: AgentEvent[] = [];
  const events$ = agent.run({ signals: [from(signals)] });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  scheduler.flush();
  return { events, mind: agent.mind };
}

/** A goal signal. */
export function goalSignal(description: string, extra: Partial<{ criteria: string; priority: number; stallThreshold: number }> = {}): Signal {
  return { type: 'goal', description, criteria: extra.criteria ?? '', priority: extra.priority ?? 128, ...(extra.stallThreshold ? { stallThreshold: extra.stallThreshold } : {}), depth: 0, meta: { source: 'test' } };
}

/** A goal nothing satisfies, over 40 facts: a run that never completes it, loops and consolidates again and again (a long stuck run). */
export const STUCK_RUN: Signal[] = [
  ...Array.from({ length: 40 }, (_, i): Signal => ({ type: 'fact', subject: `planet ${i % 8}`, predicate: i % 2 ? 'orbits' : 'has moon', object: `body ${i}`, confidence: 1, depth: 0, meta: { source: 'test' } })),
  goalSignal('Find moons and orbits of planet 3', { criteria: 'zzqx', stallThreshold: 1_000_000 }),
];

/** The stimuli (`{ source, value }`) of signals: what a recorded session is fed. */
export function stimuliOf(signals: Signal[], source = 't'): Stimulus[] {
  return signals.map(({ depth: _depth, meta: _meta, ...value }) => ({ source, value }));
}
