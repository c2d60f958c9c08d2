/**
 * perceive: raw stimuli → validated signals (zod), stamped with scheduler time.
 * What does not parse becomes a `rejected` event naming the line and the
 * reason, and the stream goes on. The signal's `meta` is the transport's: its
 * `source` (and `line`) come from the stimulus, never from the sender. Given
 * the runtime's `commands`, a command signal must name one of them. A fact
 * must name a symbol in each part and may not use an `agent:*` predicate (the
 * runtime's own bookkeeping).
 *
 *   stimuli:     --a---b---c--|      (b is not JSON)
 *   perceive():  --S---R---S--|      (S: { ok: true, signal }, R: { ok: false, rejected })
 */
import { map, type OperatorFunction } from 'rxjs';
import type { Draft } from '../streams/events.js';
import type { Runtime } from '../streams/runtime.js';
import type { Signal, Stimulus } from '../streams/signals.js';
import { unknownCommand, validateSignal } from '../streams/validateSignal.js';

export type Perception = { ok: true; signal: Signal } | { ok: false; rejected: Draft<'rejected'> };

/** How much of a bad line a rejection quotes. */
export const PREVIEW_CHARS = 120;

/** What perceive reads of the runtime: its clock and mind, and the commands it has, when it checks command names. */
export type PerceiveRuntime = Pick<Runtime, 'now' | 'mind'> & { commands?: ReadonlyMap<string, unknown> };

export function perceive(runtime: PerceiveRuntime): OperatorFunction<Stimulus, Perception> {
  return map((stimulus) => perceiveOne(runtime, stimulus));
}

/** Perceives one stimulus (the function behind {@link perceive}). */
export function perceiveOne(runtime: PerceiveRuntime, stimulus: Stimulus): Perception {
  if (stimulus.problem) return reject(runtime, stimulus, stimulus.problem);
  let value = stimulus.value;
  if (stimulus.text !== undefined) {
    try {
      value = JSON.parse(stimulus.text);
    } catch (error) {
      return reject(runtime, stimulus, notJson(stimulus.text, error));
    }
  }
  const validated = validateSignal(value);
  if (!validated.ok) return reject(runtime, stimulus, validated.reason);
  const unknown = runtime.commands ? unknownCommand(validated.signal, runtime.commands) : null;
  if (unknown) return reject(runtime, stimulus, unknown);
  // zod returns a fresh object: stamp it in place rather than copying it.
  const signal: Signal = validated.signal;
  signal.meta = stimulus.line === undefined ? { source: stimulus.source } : { source: stimulus.source, line: stimulus.line };
  signal.at = runtime.now();
  return { ok: true, signal };
}

/** U+FEFF, the byte-order mark: invisible in V8's message (`Unexpected token '', "{"type":""...`), so named instead. */
const BOM = 0xfeff;

/** Why a line is not JSON: V8's message, or that it starts with a byte-order mark, which fromNdjson strips only at the start of the input. */
function notJson(text: string, error: unknown): string {
  if (text.charCodeAt(0) === BOM) return 'not JSON: the line starts with a byte-order mark (U+FEFF), which is skipped only at the very start of the input (a file saved with one, joined after another?)';
  return `not JSON: ${(error as Error).message}`;
}

function reject(runtime: Pick<Runtime, 'now' | 'mind'>, stimulus: Stimulus, reason: string): Perception {
  const rejected: Draft<'rejected'> = { kind: 'rejected', cycle: runtime.mind.cycle, at: runtime.now(), source: stimulus.source, reason };
  if (stimulus.line !== undefined) rejected.line = stimulus.line;
  if (stimulus.text !== undefined) rejected.preview = stimulus.text.slice(0, PREVIEW_CHARS);
  return { ok: false, rejected };
}
