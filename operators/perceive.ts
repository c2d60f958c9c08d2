/**
 * perceive: raw stimuli → validated signals (zod), stamped with scheduler time.
 * What does not parse becomes a `rejected` event naming the line and the
 * reason, and the stream goes on.
 *
 *   stimuli:     --a---b---c--|      (b is not JSON)
 *   perceive():  --S---R---S--|      (S: { ok: true, signal }, R: { ok: false, rejected })
 */
import { map, type OperatorFunction } from 'rxjs';
import type { Draft } from '../streams/events.js';
import type { Runtime } from '../streams/runtime.js';
import { EXTERNAL_SIGNAL_TYPES, ExternalSignal, type Signal, type Stimulus } from '../streams/signals.js';

export type Perception = { ok: true; signal: Signal } | { ok: false; rejected: Draft<'rejected'> };

/** How much of a bad line a rejection quotes. */
export const PREVIEW_CHARS = 120;

export function perceive(runtime: Pick<Runtime, 'now' | 'mind'>): OperatorFunction<Stimulus, Perception> {
  return map((stimulus) => perceiveOne(runtime, stimulus));
}

/** Perceives one stimulus (the function behind {@link perceive}). */
export function perceiveOne(runtime: Pick<Runtime, 'now' | 'mind'>, stimulus: Stimulus): Perception {
  if (stimulus.problem) return reject(runtime, stimulus, stimulus.problem);
  let value = stimulus.value;
  if (stimulus.text !== undefined) {
    try {
      value = JSON.parse(stimulus.text);
    } catch (error) {
      return reject(runtime, stimulus, `not JSON: ${(error as Error).message}`);
    }
  }
  const problem = shapeProblem(value);
  if (problem) return reject(runtime, stimulus, problem);
  const parsed = ExternalSignal.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const type = (value as { type: string }).type;
    const where = issue.path.length ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'signal';
    return reject(runtime, stimulus, `invalid ${type} signal: ${where}: ${issue.message}`);
  }
  // zod returns a fresh object: stamp it in place rather than copying it.
  const signal: Signal = parsed.data;
  const meta = { ...signal.meta, source: signal.meta.source ?? stimulus.source };
  if (stimulus.line !== undefined) meta.line = stimulus.line;
  signal.meta = meta;
  signal.at = runtime.now();
  return { ok: true, signal };
}

function reject(runtime: Pick<Runtime, 'now' | 'mind'>, stimulus: Stimulus, reason: string): Perception {
  const rejected: Draft<'rejected'> = { kind: 'rejected', cycle: runtime.mind.cycle, at: runtime.now(), source: stimulus.source, reason };
  if (stimulus.line !== undefined) rejected.line = stimulus.line;
  if (stimulus.text !== undefined) rejected.preview = stimulus.text.slice(0, PREVIEW_CHARS);
  return { ok: false, rejected };
}

const TYPES: ReadonlySet<unknown> = new Set(EXTERNAL_SIGNAL_TYPES);

function shapeProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `expected a JSON object with a "type" field, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  }
  const type = (value as { type?: unknown }).type;
  if (TYPES.has(type)) return null;
  const expected = `expected one of ${EXTERNAL_SIGNAL_TYPES.join(', ')}`;
  return type === undefined ? `missing "type" (${expected})` : `unknown signal type ${JSON.stringify(type)} (${expected})`;
}
