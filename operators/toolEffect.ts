/**
 * One effect of a tool run (`ToolContext.effect`): the tool's I/O, recorded
 * on a live run and given back from the recording on a re-run, so what the
 * tool sees is the same either way (streams/effects.ts).
 *
 * - Live: `work` runs at once; its value (as JSON carries it: the copy the
 *   tool gets is the one recorded) or its error (rebuilt from name, message
 *   and `code`: the tool gets the rebuilt one) is handed to
 *   `runtime.effects.record` with the scheduler time it came.
 * - Re-run (`runtime.replaying`): the outcome `effects.recorded` gives
 *   settles at its recorded time on the scheduler, and `work` does not run.
 *   With none recorded (or no `recorded` to ask), `work` runs again if
 *   `repeatable`, else the effect fails with `notRerun`.
 * - Either way, once the run's signal aborts (act gave up on the tool), the
 *   effect rejects with its reason; live, that is recorded as `abandoned`,
 *   and a re-run of it settles only so.
 *
 *   live:    work ───value───▶ record(ok, at)    ─▶ resolves (value's JSON copy)
 *   re-run:  recorded(key) ──▶ schedule at `at`  ─▶ resolves / rejects as recorded
 */
import type { Subscription } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { jsonCopy } from '../mind/jsonCopy.js';
import { notRerun, ToolFailure } from '../mind/tool.js';
import { EffectError, type EffectKey, type EffectOutcome, type RecordedEffect } from '../streams/effects.js';
import type { Runtime } from '../streams/runtime.js';

export interface EffectCall {
  runtime: Runtime;
  /** The run's signal (its ToolRunScope's). */
  signal: AbortSignal;
  tool: string;
}

export function runEffect<T>({ runtime, signal, tool }: EffectCall, name: unknown, work: unknown, options: unknown): Promise<T> {
  if (typeof name !== 'string' || name.trim() === '') throw new TypeError(`ctx.effect name: expected a non-empty string saying what the effect does, got ${describeValue(name)}`);
  if (typeof work !== 'function') throw new TypeError(`ctx.effect work: expected a function (signal) => value or Promise, got ${describeValue(work)}`);
  if (options !== undefined && (options === null || typeof options !== 'object')) throw new TypeError(`ctx.effect options: expected { repeatable?: true or false }, got ${describeValue(options)}`);
  const repeatable = (options as { repeatable?: unknown } | undefined)?.repeatable;
  if (repeatable !== undefined && typeof repeatable !== 'boolean') throw new TypeError(`ctx.effect options.repeatable: expected true or false, got ${describeValue(repeatable)}`);
  const effect = { runtime, signal, tool, name, key: nextKey(runtime), work: work as (signal: AbortSignal) => unknown };
  if (!runtime.replaying) return live(effect);
  const { recorded } = runtime.effects;
  return (recorded ? recorded(effect.key) : Promise.resolve(undefined)).then((found) => {
    if (found && found.tool === tool && found.name === name) return settleAsRecorded(effect, found);
    if (!repeatable) throw notRerun(tool, name);
    return live(effect);
  });
}

interface Effect {
  runtime: Runtime;
  signal: AbortSignal;
  tool: string;
  name: string;
  key: EffectKey;
  work: (signal: AbortSignal) => unknown;
}

/** The effect's key: its cycle, and how many were started at that cycle number before it. */
function nextKey(runtime: Runtime): EffectKey {
  const count = runtime.effectCount;
  const cycle = runtime.mind.cycle;
  if (count.cycle !== cycle) {
    count.cycle = cycle;
    count.started = 0;
  }
  return { cycle, n: count.started++ };
}

function live<T>({ runtime, signal, tool, name, key, work }: Effect): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    let ended = false;
    /** Records how the effect ended, the first time it does; false after that. A recorder that throws fails the effect with its error. */
    const end = (outcome: EffectOutcome, value: unknown): boolean => {
      if (ended) return false;
      ended = true;
      signal.removeEventListener('abort', onAbort);
      try {
        runtime.effects.record?.({ ...key, at: runtime.scheduler.now(), tool, name, outcome, ...(value === undefined ? {} : { value }) });
      } catch (error) {
        reject(error as Error);
        return false;
      }
      return true;
    };
    const onAbort = (): void => void (end('abandoned', undefined) && reject(signal.reason as Error));
    const failed = (error: unknown): void => {
      const recorded = errorRecord(error);
      if (end('error', recorded)) reject(rebuiltError(recorded));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let started: unknown;
    try {
      started = work(signal);
    } catch (error) {
      return failed(error);
    }
    Promise.resolve(started).then((value) => {
      const json = jsonCopy(value, false);
      if ('problem' in json) return failed(new TypeError(`effect "${name}" of ${tool} resolved to a value JSON cannot hold: ${json.problem}`));
      if (end('ok', json.copy)) resolve(json.copy as T);
    }, failed);
  });
}

/** The recorded outcome, settled at its recorded time on the run's scheduler (never, for an abandoned one, but by the run's signal). */
function settleAsRecorded<T>({ runtime, signal }: Effect, found: RecordedEffect): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    let timer: Subscription | undefined;
    const onAbort = (): void => {
      timer?.unsubscribe();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (found.outcome === 'abandoned') return;
    timer = runtime.scheduler.schedule(() => {
      signal.removeEventListener('abort', onAbort);
      if (found.outcome === 'ok') return resolve(found.value as T);
      const recorded = EffectError.safeParse(found.value);
      reject(recorded.success ? rebuiltError(recorded.data) : new Error(`effect ${found.cycle}.${found.n}: the recorded error is damaged (${recorded.error.issues[0]!.message})`));
    }, Math.max(0, found.at - runtime.scheduler.now()));
  });
}

/** An error as a record keeps it. */
function errorRecord(error: unknown): EffectError {
  // An AbortError or TimeoutError: its `code` is a legacy number its name sets again when rebuilt.
  if (error instanceof DOMException) return { name: error.name, message: error.message };
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { code } = error as { code?: unknown };
  const kept = typeof code === 'string' || typeof code === 'number' ? { code } : {};
  const tool = error instanceof ToolFailure ? { tool: error.tool } : {};
  return { name: error.name, message: error.message, ...kept, ...tool };
}

const ERROR_KINDS: Record<string, ErrorConstructor> = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };

/** The error a record stands for: of the same kind (a built-in Error class, a ToolFailure, an AbortError or TimeoutError DOMException), name, message and `code`. */
function rebuiltError({ name, message, code, tool }: EffectError): Error | DOMException {
  if (name === 'AbortError' || name === 'TimeoutError') return new DOMException(message, name);
  let error: Error;
  if (name === 'ToolFailure' && tool !== undefined) {
    error = new ToolFailure(tool, '');
    error.message = message;
  } else {
    const known = Object.hasOwn(ERROR_KINDS, name);
    error = new (known ? ERROR_KINDS[name]! : Error)(message);
    if (!known) error.name = name;
  }
  if (code !== undefined) (error as { code?: unknown }).code = code;
  return error;
}
