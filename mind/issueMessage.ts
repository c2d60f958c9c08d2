/**
 * How a zod issue reads in an error about something a user passed: what was
 * expected and what came instead (`expected one of safe, cautious, got
 * "extreme"`).
 */
import type { z } from 'zod';
import { describeValue } from './describeValue.js';

/** Messages for the issues no schema words itself (a parse's `error` option); undefined keeps zod's own. */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const got = `got ${describeValue(issue.input)}`;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}, ${got}`;
    case 'invalid_value':
      return `expected one of ${issue.values.join(', ')}, ${got}`;
    case 'invalid_union': {
      // A discriminated union's issue is on the discriminator.
      const kind = (issue.input as Record<string, unknown>)[issue.discriminator ?? ''];
      return `expected one of ${(issue.options as unknown[] | undefined ?? []).join(', ')}, got ${describeValue(kind)}`;
    }
    case 'too_small':
      if (issue.origin === 'array') return `expected at least ${issue.minimum} item(s), got none`;
      if (issue.origin === 'string') return issue.minimum === 1 ? `expected a non-empty string, ${got}` : `expected at least ${issue.minimum} characters, ${got}`;
      return `expected a number ${issue.inclusive ? '>=' : '>'} ${issue.minimum}, ${got}`;
    case 'too_big':
      return `expected a number <= ${issue.maximum}, ${got}`;
    default:
      return undefined;
  }
}
