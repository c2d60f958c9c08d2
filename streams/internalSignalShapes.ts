/**
 * The bodies of the runtime's own signals (tick, heartbeat, feedback, error)
 * as `agent.inject` checks them: they are built by the runtime, typed rather
 * than parsed, but an injected one comes from a caller, and its fields become
 * the fields of events (`heartbeat`'s `beat`, `error`'s `severity` and
 * `message`), and a recording of it is replayed. A body holds its type's
 * fields and no other. The wording is the external signals' (`invalid error
 * signal: severity: …`).
 */
import { z } from 'zod';
import { issueMessage } from '../mind/issueMessage.js';
import { issueReason } from './validateSignal.js';

/** The body fields of each of the runtime's own signal types (beside `type` and the envelope); replay's signal log check uses them too. */
export const INTERNAL_BODY_FIELDS = {
  tick: {},
  heartbeat: { beat: z.number().int().positive() },
  feedback: { reason: z.string(), goalId: z.string().optional(), tool: z.string().optional() },
  error: { message: z.string(), severity: z.enum(['transient', 'critical']) },
} as const;

// Strict, as replay reads them from the signal log: a field of no signal's would be recorded, and the recording could not be replayed.
const INTERNAL_BODIES = {
  tick: z.strictObject(INTERNAL_BODY_FIELDS.tick),
  heartbeat: z.strictObject(INTERNAL_BODY_FIELDS.heartbeat),
  feedback: z.strictObject(INTERNAL_BODY_FIELDS.feedback),
  error: z.strictObject(INTERNAL_BODY_FIELDS.error),
} as const;

export type InternalInjectableType = keyof typeof INTERNAL_BODIES;

/** Why an injected internal signal's body is malformed (`invalid heartbeat signal: beat: …`, a field it does not have: `trace: Unrecognized key: "trace"`), or null. */
export function internalBodyProblem(type: InternalInjectableType, body: Record<string, unknown>): string | null {
  const parsed = INTERNAL_BODIES[type].safeParse(body, { error: issueMessage });
  return parsed.success ? null : issueReason(type, parsed.error.issues[0]!);
}
