/**
 * Input signals: the one contract for everything that enters the agent.
 *
 * External signals (a line on stdin, a WebSocket message, a replayed row) are
 * validated with {@link ExternalSignal}; internal ones are built by the runtime
 * and are typed, not parsed. Every signal carries `depth` (0 when it enters from
 * outside, +1 per feedback step), `meta` (source, session, correlation id) and,
 * once perceived, `at` (scheduler time).
 */
import { z } from 'zod';
import { notFinite } from '../mind/finiteNumbers.js';

export const SignalMeta = z
  .object({
    source: z.string().optional(),
    session: z.string().optional(),
    correlationId: z.string().optional(),
    line: z.number().int().positive().optional(),
    /** Set in a recording on the signal taken in after max cycles while input was still open (see `Entering`): a replay warns at its pass. */
    pastMaxCycles: z.literal(true).optional(),
    /** Set by a recorder on the signal whose snapshot (a `save` command, an auto-save) could not be taken, saying why: its pass reports it as a critical `error`, and so does a replay. */
    snapshotFailed: z.string().optional(),
  })
  .strict();
export type SignalMeta = z.infer<typeof SignalMeta>;

/** The message for a text field that is empty or only whitespace. */
const BLANK = 'must not be empty or blank';

const envelope = {
  depth: z.number().int().min(0).default(0),
  meta: SignalMeta.default({}),
  at: z.number().optional(),
};

export const GoalSignal = z
  .object({
    type: z.literal('goal'),
    description: z.string().trim().min(1, BLANK),
    criteria: z.string().default(''),
    priority: z.number().int().min(0).max(255).default(128),
    stallThreshold: z.number().int().positive().optional(),
    ...envelope,
  })
  .strict();

export const FactSignal = z
  .object({
    type: z.literal('fact'),
    subject: z.string().trim().min(1, BLANK),
    predicate: z.string().trim().min(1, BLANK),
    object: z.string().trim().min(1, BLANK),
    confidence: z.number().min(0).max(1).default(1),
    ...envelope,
  })
  .strict();

export const InputSignal = z
  .object({
    type: z.literal('input'),
    text: z.string(),
    /** Answers the question with this id (see the `question` event); optional. */
    replyTo: z.string().optional(),
    ...envelope,
  })
  .strict();

export const SensorSignal = z
  .object({
    type: z.literal('sensor'),
    sensor: z.string().trim().min(1, BLANK),
    value: z.union([z.number(), z.string(), z.boolean(), z.record(z.string(), z.unknown())], {
      // A number JSON cannot hold (1e400 parses to Infinity) is a number still: said so.
      error: ({ input }) => (typeof input === 'number' ? notFinite(input) : `expected a number, a string, a boolean or an object${Array.isArray(input) ? ', got an array' : ''}`),
    }),
    ...envelope,
  })
  .strict();

/** The commands the runtime itself provides (`save` with a store); an agent accepts these and the ones it is given. */
export const COMMANDS = ['reflect', 'consolidate', 'plan', 'pause', 'resume', 'stop', 'save', 'status'] as const;
export type CommandName = (typeof COMMANDS)[number];

/** A command by name: perceive accepts the names the agent has a handler for (see {@link unknownCommand}). */
export const CommandSignal = z
  .object({
    type: z.literal('command'),
    command: z.string().trim().min(1, BLANK),
    ...envelope,
  })
  .strict();

/** What may enter from outside: stdin, WebSocket, replay. */
export const ExternalSignal = z.discriminatedUnion('type', [
  GoalSignal,
  FactSignal,
  InputSignal,
  SensorSignal,
  CommandSignal,
]);
export type ExternalSignal = z.infer<typeof ExternalSignal>;
export type GoalSignal = z.infer<typeof GoalSignal>;
export type FactSignal = z.infer<typeof FactSignal>;
export type InputSignal = z.infer<typeof InputSignal>;
export type SensorSignal = z.infer<typeof SensorSignal>;
export type CommandSignal = z.infer<typeof CommandSignal>;

export const EXTERNAL_SIGNAL_TYPES = ['goal', 'fact', 'input', 'sensor', 'command'] as const;

interface InternalEnvelope {
  depth: number;
  meta: SignalMeta;
  at?: number;
}

/** The driver's request to run one OODA cycle. */
export interface TickSignal extends InternalEnvelope {
  type: 'tick';
}
/** The heartbeat source's pulse (seed 004: latent maintenance, auto-save). */
export interface HeartbeatSignal extends InternalEnvelope {
  type: 'heartbeat';
  beat: number;
}
/** Act's follow-up: re-enters the cycle at depth + 1. */
export interface FeedbackSignal extends InternalEnvelope {
  type: 'feedback';
  goalId?: string;
  tool?: string;
  reason: string;
}
/** Recover's retry signal after an error (seed 004's `:loop-error`). */
export interface ErrorSignal extends InternalEnvelope {
  type: 'error';
  message: string;
  severity: 'transient' | 'critical';
}

/** Marks the pass that reports a stimulus perceive rejected; never enters the cycle. */
export interface RejectedSignal extends InternalEnvelope {
  type: 'rejected';
  reason: string;
}

export type InternalSignal = TickSignal | HeartbeatSignal | FeedbackSignal | ErrorSignal | RejectedSignal;
export type Signal = ExternalSignal | InternalSignal;
/**
 * What `agent.inject` takes: a signal as written by hand, its defaults left
 * out (an external signal as its schema reads it, so a goal without
 * `criteria` or `priority`; an internal one without `depth` or `meta`).
 */
export type InjectableSignal = z.input<typeof ExternalSignal> | EnvelopeOptional<Exclude<InternalSignal, RejectedSignal>>;
type EnvelopeOptional<S> = S extends InternalEnvelope ? Omit<S, 'depth' | 'meta'> & Partial<InternalEnvelope> : never;
export type SignalType = Signal['type'];

/** Every signal type: the external ones and the runtime's own. */
export const SIGNAL_TYPES: ReadonlySet<string> = new Set<SignalType>([...EXTERNAL_SIGNAL_TYPES, 'tick', 'heartbeat', 'feedback', 'error', 'rejected']);

/** Signals that run an OODA cycle when a goal is active; the rest are integrated only. */
export const CYCLE_SIGNAL_TYPES: ReadonlySet<SignalType> = new Set(['tick', 'feedback', 'error']);

/**
 * A raw stimulus as sources deliver it, before perception: either a text line
 * (stdin, WebSocket frame) or an already-structured value (CLI goals, sensors).
 */
export interface Stimulus {
  source: string;
  /** 1-based line number when the stimulus is a line of a stream. */
  line?: number;
  text?: string;
  value?: unknown;
  /** Set by a source that already knows this stimulus is unusable (e.g. an oversized line). */
  problem?: string;
  /** A replayed stimulus that was taken in after max cycles while input was still open (see `Entering`). */
  pastMaxCycles?: true;
}
