/**
 * What a WebSocket client subscribes to, read from the connection URL
 * (`/ws?subscribe=decision,goal`) or from a `{"subscribe": …}` message. An
 * unknown kind is named with the accepted kinds, the same way in both.
 */
import { describeValue } from '../mind/describeValue.js';
import { EVENT_KINDS, type EventKind } from './events.js';
import { describeIssue, SubscribeMessage, type Subscription } from './wsProtocol.js';

/**
 * `?subscribe=decision,goal` → a set of kinds; absent or `*` → all; empty
 * (`?subscribe=`) → none, as `{"subscribe": []}` (a client that only sends);
 * an unknown kind → the problem.
 */
export function subscriptionFromQuery(raw: string | null): { subscription: Subscription } | { problem: string } {
  if (raw === null || raw === '*') return { subscription: 'all' };
  if (raw.trim() === '') return { subscription: new Set() };
  const kinds = raw.split(',').map((k) => k.trim());
  const problem = unknownKindsProblem(kinds);
  if (problem) return { problem: `?subscribe: ${problem}` };
  return { subscription: new Set(kinds as EventKind[]) };
}

/** A `{"subscribe": …}` message → the subscription and the kinds to acknowledge, or the problem (after `invalid subscribe: `). */
export function subscriptionFromMessage(message: object): { subscription: Subscription; kinds: SubscribeMessage['subscribe'] } | { problem: string } {
  const { subscribe } = message as { subscribe?: unknown };
  const unknown = Array.isArray(subscribe) ? unknownKindsProblem(subscribe) : null;
  if (unknown) return { problem: unknown };
  const parsed = SubscribeMessage.safeParse(message);
  if (!parsed.success) return { problem: describeIssue(parsed.error.issues[0]!) };
  const kinds = parsed.data.subscribe;
  return { subscription: kinds === '*' ? 'all' : new Set(kinds), kinds };
}

/** Names the entries of a subscription that are no event kind, and the accepted kinds; null when all are kinds. */
function unknownKindsProblem(kinds: readonly unknown[]): string | null {
  const unknown = kinds.filter((k) => !(EVENT_KINDS as readonly unknown[]).includes(k));
  if (unknown.length === 0) return null;
  // Not JSON.stringify: a client's deeply nested entry would overflow the stack.
  return `unknown event kind(s) ${unknown.map(describeValue).join(', ')} (accepted: ${EVENT_KINDS.join(', ')}, or "*" for all)`;
}
