/**
 * The WebSocket protocol between the agent's server (`/ws`) and its clients
 * (the dashboard, scripts). Frames are JSON text.
 *
 * Client → server:
 * - `{"subscribe": ["decision", "goal"]}` or `{"subscribe": "*"}`: which event
 *   kinds to receive (all by default; also `/ws?subscribe=decision,goal`). No
 *   token. `id` (optional) comes back in the answer, as for signals.
 * - `{"id": "c1", "token": "…", "signal": {"type": "goal", "description": "…"}}`:
 *   a signal (goal, fact, input, command) validated like a line on stdin;
 *   needs the control token. `id` (optional) comes back in the answer.
 *
 * Server → client:
 * - an event (an object with `kind`), or under load an array of events;
 * - `{"type": "snapshot", …, seq}` once on connect, followed by the last events
 *   (those with `seq` ≤ the snapshot's are already counted in it);
 * - `{"type": "ack", id?, accepted}` / `{"type": "error", id?, error}` answering a message;
 * - `{"type": "keepalive", intervalMs}` every `intervalMs`, whatever else is sent:
 *   a client that hears nothing for a few intervals knows the server is stuck.
 *
 * A client over its queued-bytes cap is closed with {@link CLOSE_SLOW_CONSUMER};
 * a frame over `maxPayload` with 1009; the server stopping closes with 1001.
 */
import { z } from 'zod';
import { EVENT_KINDS, type AgentEvent, type EventKind, type EventOf, type GoalStatus } from './events.js';

/** Signal types a WebSocket client may send. */
export const WS_SIGNAL_TYPES = ['goal', 'fact', 'input', 'command'] as const;

/** Close code for a client that does not read fast enough (its queue passed the cap). */
export const CLOSE_SLOW_CONSUMER = 4008;

/** The close reason of a slow consumer: `slow consumer: N bytes queued, over the cap of M`. */
export function slowConsumerReason(queued: number, cap: number): string {
  return `slow consumer: ${queued} bytes queued, over the cap of ${cap}`;
}
/** Close code when the agent stops (the standard "going away"). */
export const CLOSE_GOING_AWAY = 1001;

export const SubscribeMessage = z
  .object({
    id: z.string().max(128).optional(),
    subscribe: z.union([z.literal('*'), z.array(z.enum(EVENT_KINDS))], { error: 'expected "*" (every kind) or an array of event kinds, e.g. ["decision","goal"]' }),
  })
  .strict();
export type SubscribeMessage = z.infer<typeof SubscribeMessage>;

export const SignalMessage = z
  .object({
    id: z.string().max(128).optional(),
    token: z.string().max(256).optional(),
    signal: z.unknown(),
  })
  .strict();
export type SignalMessage = z.infer<typeof SignalMessage>;

/** A message's first schema problem as `path: reason` (for an unknown key, the key). */
export function describeIssue(issue: { path: PropertyKey[]; message: string; code: string; keys?: string[] }): string {
  const where = issue.path.length ? issue.path.map(String).join('.') : issue.code === 'unrecognized_keys' ? (issue.keys ?? []).join(', ') : 'message';
  return `${where}: ${issue.message}`;
}

/** The kinds a client receives: every kind, or a set. */
export type Subscription = 'all' | ReadonlySet<EventKind>;

/** The state a late joiner starts from (goals, working memory, last decisions). */
export interface Snapshot {
  type: 'snapshot';
  session: string;
  /** The agent's scheduler time (ms) when the snapshot was read, when the server knows it. */
  at?: number;
  cycle: number;
  paused: boolean;
  /** Unfinished goals in creation order, then finished ones in the order they finished (the order the mind retires them in). */
  goals: {
    goalId: string;
    description: string;
    criteria: string;
    status: GoalStatus;
    priority: number;
    parentId?: string;
    childIds: string[];
  }[];
  memory: {
    size: number;
    capacity: number;
    pressure: number;
    recent: { kind: string; content: string; cycle: number }[];
  };
  decisions: { cycle: number; goalId: string; tool: string; score: number; breakdown: string; status: string; progress: string }[];
  episodes: number;
  facts: number;
  /**
   * The questions user_interact asked that still wait for an answer, oldest
   * first: their `question` events may be from before the agent restarted
   * from its saved state, which no replay holds. Absent: none known.
   * `askedAt` (scheduler time) plus `timeoutMs` is a question's deadline.
   */
  questions?: { questionId: string; goalId: string; text: string; timeoutMs: number; askedAt: number }[];
  /**
   * Each goal's active plan, as a `plan` event that made it would show it
   * (the steps' rationales included): one made before the agent restarted
   * from its saved state has no event in any replay. Absent: none known.
   */
  plans?: Pick<EventOf<'plan'>, 'goalId' | 'planId' | 'attempt' | 'strategy' | 'order' | 'status' | 'steps' | 'departures'>[];
  /**
   * The mind's bounds (`finishedGoalsKept`, `episodesKept`): past them it
   * retires the goals that finished longest ago and the oldest episodes,
   * without an event, so a client that stays connected applies them itself.
   * Absent: no bound.
   */
  kept?: { finishedGoals: number; episodes: number };
  /**
   * The `seq` of the last event published before the snapshot was taken (set
   * by the sink; absent when none was). The snapshot already includes the
   * effects of that event and every earlier one, so a client must not apply
   * replayed events with `seq` ≤ this to its counters again.
   */
  seq?: number;
}

/** Answers a message: `accepted` is `subscribe` (with the kinds) or the signal's type. */
export interface Ack {
  type: 'ack';
  id?: string;
  accepted: string;
  kinds?: EventKind[] | '*';
}

export interface ErrorReply {
  type: 'error';
  id?: string;
  error: string;
}

/** Sent to every client every `intervalMs`, so a silent connection can be told from an idle agent. */
export interface Keepalive {
  type: 'keepalive';
  intervalMs: number;
}

export type ServerMessage = Snapshot | Ack | ErrorReply | Keepalive | AgentEvent | AgentEvent[];

/** A signal message that passed the token check, for the input source to validate. */
export interface SignalRequest {
  /** The connection it came from, e.g. `ws-3`. */
  client: string;
  id?: string;
  signal: unknown;
}

/** The input source's answer: accepted (with its signal type) or the problem. */
export type SignalVerdict = { ok: true; signal: string } | { ok: false; error: string };

/** Where signal messages go: the server implements it, the WebSocket input source listens on it. */
export interface SignalChannel {
  /** Routes signal messages to `handler` until the returned function is called. */
  onSignal(handler: (request: SignalRequest) => SignalVerdict): () => void;
}
