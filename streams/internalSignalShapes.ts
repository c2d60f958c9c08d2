/**
 * The bodies of the runtime's own signals (tick, heartbeat, feedback, error)
 * as `agent.inject` checks them: they are built by the runtime, typed rather
 * than parsed, but an injected one comes from a caller, and its fields become
 * the fields of events (`heartbeat`'s `beat`, `error`'s `severity` and
 * `message`). The wording is the external signals' (`invalid error signal:
 * severity: …`).
 */
import { z } from 'zod';
import { issueMessage } from '../mind/issueMessage.js';

const INTERNAL_BODIES = {
  tick: z.object({}),
  heartbeat: z.object({ beat: z.number().int().positive() }),
  feedback: z.object({ reason: z.string(), goalId: z.string().optional(), tool: z.string().optional() }),
  error: z.object({ message: z.string(), severity: z.enum(['transient', 'critical']) }),
} as const;

export type InternalInjectableType = keyof typeof INTERNAL_BODIES;

/** Why an injected internal signal's body is malformed (`invalid heartbeat signal: beat: …`), or null. */
export function internalBodyProblem(type: InternalInjectableType, body: Record<string, unknown>): string | null {
  const parsed = INTERNAL_BODIES[type].safeParse(body, { error: issueMessage });
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `invalid ${type} signal: ${issue.path.join('.') || 'signal'}: ${issue.message}`;
}
