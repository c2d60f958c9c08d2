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
 *   settles at once (the clock's next step at the same time), effects due
 *   together in the order they settled when recorded (their `id`), and
 *   `work` does not run. A recorded outcome means the run was not given up
 *   on before it came, so it settles before any timer of the run can give up
 *   (act's `toolTimeoutMs`), whenever the recorded one came. With none
 *   recorded (or no `recorded` to ask), `work` runs again if `repeatable`,
 *   else the effect fails with `notRerun`.
 * - On a virtual clock, live work holds the clock's next step until it
 *   settles (streams/realWork.ts), so its I/O settles at the virtual time
 *   it was due; while a re-run's recorded outcome waits for its clock step,
 *   the run listens for its signal, so it counts as waiting on the clock.
 * - Either way, once the run's signal aborts (act gave up on the tool), the
 *   effect rejects with its reason; live, that is recorded as `abandoned`,
 *   and a re-run of it settles only so. An effect asked for once the run was
 *   given up on, or had ended, is refused at once and takes no key.
 *
 *   live:    work ───value───▶ record(ok, at)  ─▶ resolves (value's JSON copy)
 *   re-run:  recorded(key) ──▶ next clock step ─▶ resolves / rejects as recorded
 */
import type { SchedulerLike } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { jsonCopy } from '../mind/jsonCopy.js';
import { notRerun, ToolFailure } from '../mind/tool.js';
import { EffectError, type EffectKey, type EffectOutcome, type RecordedEffect } from '../streams/effects.js';
import { holdClockFor } from '../streams/realWork.js';
import type { Runtime } from '../streams/runtime.js';
import type { ToolRunScope } from './toolRunScope.js';

/** The run an effect belongs to. */
export interface EffectCall {
  runtime: Runtime;
  scope: ToolRunScope;
  tool: string;
  /** The cycle the run was decided in. */
  cycle: number;
}

/** Runs (or, re-running, settles as recorded) one effect of a run; `name`, `work` and `options` as the tool passed them to `ctx.effect`, checked here. */
export function runEffect<T>({ runtime, scope, tool, cycle }: EffectCall, name: unknown, work: unknown, options: unknown): Promise<T> {
  if (typeof name !== 'string' || name.trim() === '') throw new TypeError(`ctx.effect name: expected a non-empty string saying what the effect does, got ${describeValue(name)}`);
  if (typeof work !== 'function') throw new TypeError(`ctx.effect work: expected a function (signal) => value or Promise, got ${describeValue(work)}`);
  if (options !== undefined && (options === null || typeof options !== 'object')) throw new TypeError(`ctx.effect options: expected { repeatable?: true or false }, got ${describeValue(options)}`);
  const repeatable = (options as { repeatable?: unknown } | undefined)?.repeatable;
  if (repeatable !== undefined && typeof repeatable !== 'boolean') throw new TypeError(`ctx.effect options.repeatable: expected true or false, got ${describeValue(repeatable)}`);
  const { signal } = scope;
  if (signal.aborted) return refused(signal.reason);
  if (scope.ended) return refused(new ToolFailure(tool, `effect "${name}" was asked for after the tool's run ended: await an effect before the run returns`));
  const book = bookOf(runtime);
  const effect: Effect = { runtime, signal, tool, name, key: book.nextKey(cycle), work: work as (signal: AbortSignal) => unknown };
  if (!runtime.replaying) return holdClockFor(runtime.scheduler, live(effect));
  const { recorded } = runtime.effects;
  // Work that runs again holds the clock as live work does; a recorded outcome settles at a clock step, the run listening for its signal meanwhile.
  return (recorded ? recorded(effect.key) : Promise.resolve(undefined)).then((found) => {
    if (found && found.tool === tool && found.name === name) return settleAsRecorded<T>(effect, found, book);
    if (!repeatable) throw notRerun(tool, name);
    return holdClockFor(runtime.scheduler, live<T>(effect));
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

/** A rejection that counts as handled when the tool leaves it (a late, unawaited effect must not end the process). */
function refused<T>(reason: unknown): Promise<T> {
  const rejected = Promise.reject(reason as Error);
  rejected.catch(() => undefined);
  return rejected;
}

/**
 * A runtime's effects: the keys given out (per cycle number, counted on when a
 * rolled-back cycle number runs again, so no two share one), and, re-running,
 * the recorded outcomes waiting to settle.
 */
class EffectBook {
  private cycle = -1;
  private started = 0;
  /** Recorded outcomes read back and not settled yet, the first settled when recorded first. */
  private readonly due: { order: number; settle: () => void }[] = [];
  private stepping = false;

  nextKey(cycle: number): EffectKey {
    if (this.cycle !== cycle) {
      this.cycle = cycle;
      this.started = 0;
    }
    return { cycle, n: this.started++ };
  }

  /** Settles `settle` at the scheduler's next step, after the ones due with a lower `order`, one per step (what one settles may start another). */
  settleInOrder(scheduler: SchedulerLike, order: number, settle: () => void): void {
    this.due.push({ order, settle });
    this.due.sort((a, b) => a.order - b.order);
    if (this.stepping) return;
    this.stepping = true;
    const step = (): void => {
      const next = this.due.shift();
      if (this.due.length > 0) scheduler.schedule(step);
      else this.stepping = false;
      next?.settle();
    };
    scheduler.schedule(step);
  }
}

const books = new WeakMap<Runtime, EffectBook>();

function bookOf(runtime: Runtime): EffectBook {
  let book = books.get(runtime);
  if (!book) books.set(runtime, (book = new EffectBook()));
  return book;
}

function live<T>({ runtime, signal, tool, name, key, work }: Effect): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let ended = false;
    /** Records how the effect ended, the first time it does; false after that. A recorder that throws fails the effect with its error. */
    const end = (outcome: EffectOutcome, value: unknown): boolean => {
      if (ended) return false;
      ended = true;
      signal.removeEventListener('abort', onAbort);
      try {
        runtime.effects.record?.({ ...key, at: runtime.clock(), tool, name, outcome, ...(value === undefined ? {} : { value }) });
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
    const succeeded = (value: unknown): void => {
      let json: ReturnType<typeof jsonCopy>;
      try {
        json = jsonCopy(value, false);
      } catch (error) {
        // A getter or a Proxy that throws as the value is copied.
        return failed(error);
      }
      if ('problem' in json) return failed(new TypeError(`effect "${name}" of ${tool} resolved to a value JSON cannot hold: ${json.problem}`));
      if (end('ok', json.copy)) resolve(json.copy as T);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let started: unknown;
    try {
      started = work(signal);
    } catch (error) {
      return failed(error);
    }
    Promise.resolve(started).then(succeeded, failed);
  });
}

/** The recorded outcome, settled in its order at the scheduler's next step (never, for an abandoned one, but by the run's signal). */
function settleAsRecorded<T>({ runtime, signal }: Effect, found: RecordedEffect, book: EffectBook): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    let settled = false;
    const onAbort = (): void => {
      settled = true;
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (found.outcome === 'abandoned') return;
    book.settleInOrder(runtime.scheduler, found.id ?? Number.MAX_SAFE_INTEGER, () => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (found.outcome === 'ok') return resolve(found.value as T);
      const recorded = EffectError.safeParse(found.value);
      reject(recorded.success ? rebuiltError(recorded.data) : new Error(`effect ${found.cycle}.${found.n}: the recorded error is damaged (${recorded.error.issues[0]!.message})`));
    });
  });
}

/** An error as a record keeps it (one that throws as it is read, a Proxy, as just that). */
function errorRecord(error: unknown): EffectError {
  try {
    // An AbortError or TimeoutError: its `code` is a legacy number its name sets again when rebuilt.
    if (error instanceof DOMException) return { name: error.name, message: error.message };
    if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
    const { code } = error as { code?: unknown };
    const kept = typeof code === 'string' || typeof code === 'number' ? { code } : {};
    const tool = error instanceof ToolFailure ? { tool: error.tool } : {};
    return { name: String(error.name), message: String(error.message), ...kept, ...tool };
  } catch {
    return { name: 'Error', message: 'an error that throws as it is read' };
  }
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
