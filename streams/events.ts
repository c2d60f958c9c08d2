/**
 * Events: what the agent emits. One stream, discriminated on `kind`; the same
 * objects go to stdout as NDJSON, into SQLite and out over WebSocket.
 *
 * Every event carries `seq` (strictly increasing within a session, assigned
 * where the stream leaves the agent), `session`, `cycle` (the agent's cycle
 * count when the event was made) and `at` (scheduler time in ms).
 */
import { z } from 'zod';
import type { LoopInfo } from '../mind/loopDetection.js';

export type GoalStatus = 'Active' | 'Suspended' | 'Completed' | 'Failed';

interface Bodies {
  /** Bad input: not JSON, not a valid signal, or too long. The stream goes on. */
  rejected: { source: string; line?: number; reason: string; preview?: string };
  /** A signal accepted from outside (one per accepted line). */
  perceived: { source: string; line?: number; signalType: string; depth: number };
  observation: {
    goalId: string;
    /** The ten active goals of highest priority, in order. */
    activeGoals: { goalId: string; priority: number }[];
    /** How many goals are active. */
    activeCount: number;
    memorySize: number;
    /** Knowledge triples in the graph (metadata excluded): the agent's fact count, whatever added them. */
    facts: number;
    recent: string[];
    recalled: string[];
  };
  orientation: {
    goalId: string;
    adjacentTriples: number;
    activated: { symbol: string; activation: number }[];
    episodeKnowledge: string[];
    pressure: number;
  };
  decision: {
    goalId: string;
    tool: string;
    score: number;
    breakdown: string;
    input: unknown;
    alternatives: { tool: string; score: number }[];
    impasse?: string;
    reason: string;
  };
  action: {
    goalId: string;
    tool: string;
    status: 'ok' | 'failed' | 'vetoed';
    summary: string;
    progress: 'completed' | 'advanced' | 'failed' | 'none';
    input?: unknown;
    stateHash?: string;
    /** The knowledge graph's size after the tool ran (facts it added have no `fact` event). */
    facts: number;
    /** Working-memory entries after the tool ran. */
    memorySize: number;
    /** Episodes held after the tool ran (memory_recall consolidates without a `consolidation` event). */
    episodes: number;
  };
  goal: {
    goalId: string;
    description: string;
    /** The goal's success criteria, said once: when it is `added`. */
    criteria?: string;
    status: GoalStatus;
    priority: number;
    parentId?: string;
    change: string;
  };
  /** A plan was made, advanced, left, completed, failed or superseded (seed 002). */
  plan: {
    goalId: string;
    planId: string;
    attempt: number;
    /** The strategy pattern the goal matched. */
    strategy: 'Knowledge' | 'Reasoning' | 'Creation' | 'External' | 'Similarity';
    order: 'explore-first' | 'reason-first';
    status: 'Active' | 'Completed' | 'Failed' | 'Superseded';
    change: 'created' | 'step' | 'left' | 'completed' | 'failed' | 'superseded';
    /** The step the change is about. */
    step?: number;
    /** Every step's status; the rationale (fixed when the plan is made) only in the `created` event. */
    steps: { index: number; tool: string; status: 'Pending' | 'Active' | 'Completed' | 'Failed' | 'Skipped'; rationale?: string }[];
    /** Decisions so far that left the plan for another tool. */
    departures: number;
    reason: string;
  };
  /** A reflection over the cycles since the last one, and what it changed (seed 002). */
  reflection: {
    number: number;
    trigger: 'interval' | 'command';
    /** Cycles since the last reflection. */
    cycles: number;
    adjustments: (
      | { kind: 'boost'; goalId: string; from: number; to: number; reason: string }
      | { kind: 'demote'; goalId: string; from: number; to: number; reason: string }
      | { kind: 'decompose'; goalId: string; children: string[]; reason: string }
      | { kind: 'consolidate'; episodes: number; freed: number; reason: string }
    )[];
    /** Success rate per tool that ran in the window. */
    tools: { tool: string; runs: number; ok: number; rate: number }[];
    pressure: number;
    /** The psyche's evolution, when the agent has a psyche. */
    psyche?: { dominant: string; individuation: number; weights: { name: string; before: number; after: number }[] };
  };
  /** A loop in the executed actions (see `findLoop`), on the goal the newest action worked on. */
  loop: LoopInfo & {
    goalId: string;
    /** Whether an intervention followed (not when the goal had just ended). */
    intervened: boolean;
  };
  /** The agent set a looping goal aside for an intervention goal. */
  intervention: {
    /** The intervention goal. */
    goalId: string;
    description: string;
    /** The looping goal, now suspended until the intervention goal ends. */
    suspendedGoalId: string;
    loopType: LoopInfo['type'];
    actionType: string;
    /** First person: "I noticed I was repeating kg_query …". */
    narrative: string;
    planDropped: boolean;
  };
  consolidation: { episodes: number; freed: number; reason: string };
  /**
   * user_interact's question: `asked` when registered; `answered` (with the
   * answer) when an input answers it; `expired` when a signal arrives after
   * its deadline. A question event without a status is an `asked` one.
   */
  question: {
    questionId: string;
    goalId?: string;
    text: string;
    timeoutMs: number;
    status?: 'asked' | 'answered' | 'expired';
    answer?: string;
  };
  error: {
    severity: 'transient' | 'critical';
    message: string;
    rolledBack: boolean;
    signalType?: string;
    depth?: number;
    tool?: string;
    /** The skill that threw (it was isolated; the other skills kept working). */
    skill?: string;
  };
  warning: { message: string; key?: string };
  heartbeat: { beat: number };
  sensor: { sensor: string; value: unknown };
  fact: { subject: string; predicate: string; object: string; added: boolean };
  input: { text: string; replyTo?: string };
  command: { command: string; result: string };
  session: {
    state: 'started' | 'paused' | 'running' | 'stopped' | 'saved';
    reason?: string;
    cycles?: number;
  };
}

export type EventKind = keyof Bodies;
export const EVENT_KINDS = [
  'rejected', 'perceived', 'observation', 'orientation', 'decision', 'action', 'goal', 'plan', 'loop',
  'intervention', 'reflection', 'consolidation', 'question', 'error', 'warning', 'heartbeat', 'sensor',
  'fact', 'input', 'command', 'session',
] as const satisfies readonly EventKind[];

export interface EventHeader {
  seq: number;
  session: string;
  cycle: number;
  at: number;
}

/** An event as the mind and operators make it: no `seq`/`session` yet. */
export type Draft<K extends EventKind = EventKind> = K extends EventKind
  ? { kind: K; cycle: number; at: number } & Bodies[K]
  : never;

/** An event as it leaves the agent. */
export type AgentEvent<K extends EventKind = EventKind> = K extends EventKind
  ? { kind: K } & EventHeader & Bodies[K]
  : never;

export type EventOf<K extends EventKind> = AgentEvent<K>;
export type EventBody<K extends EventKind> = Bodies[K];

/** The envelope every event satisfies; used where events are read back (replay, store). */
export const EventEnvelope = z
  .object({
    kind: z.enum(EVENT_KINDS),
    seq: z.number().int().nonnegative(),
    session: z.string(),
    cycle: z.number().int().nonnegative(),
    at: z.number(),
  })
  .passthrough();
