/**
 * The tool contract. A tool names itself, describes its risk and its semantic
 * profile (keywords: at least one; 17–25 match best), validates its input with
 * zod, proposes an input for a goal, and executes against the mind. A
 * definition is checked against this shape when it is registered
 * (mind/toolDefinition.ts). Tools are the only place where the
 * mind touches the outside world (files, HTTP, processes).
 */
import type { z } from 'zod';
import type { MindConfig } from './config.js';
import type { Goal } from './goals.js';
import type { AsJson } from './jsonCopy.js';
import type { Mind } from './mind.js';

export type Danger = 'safe' | 'cautious' | 'dangerous' | 'critical';

/** A (subject, predicate, object) statement as tools report it. */
export interface Fact {
  subject: string;
  predicate: string;
  object: string;
}

/** What a tool returns. `ok: false` is a tool-level failure that is not an exception. */
export interface ToolOutput {
  ok: boolean;
  summary: string;
  /** Text the goal's success criteria are also checked against. */
  content?: string;
  /** Symbols the result is about (linked into working memory). */
  symbols?: readonly string[];
  /** Knowledge triples the tool added. */
  added?: number;
  /**
   * Knowledge the tool established (found, derived or added): goal criteria
   * are checked against these facts (metadata predicates are ignored) and the
   * sentences of `content`, never against `summary`.
   */
  facts?: readonly Fact[];
  /**
   * A question the tool registered with `ctx.mind.questions.ask` (user_interact
   * does): act emits a `question` event and the goal waits for the answer or
   * the timeout. One that is not pending fails the tool.
   */
  asked?: { questionId: string; text: string; timeoutMs: number };
  /** Structured result for programmatic users. */
  data?: unknown;
  /** Asks act to feed the result back as a follow-up signal (depth + 1). */
  followUp?: string;
}

/** What a tool sees when it proposes an input (synchronously: no I/O there) and, with its run's signals, when it runs. */
export interface ProposalContext {
  readonly mind: Mind;
  readonly goal: Goal;
  readonly config: MindConfig;
  /**
   * Scheduler time in ms when the pass began: a pass happens at one instant,
   * so this does not move while an async tool awaits (every event of the pass
   * carries the same time). For a tool's own time limit use `ctx.timeout`.
   */
  now(): number;
  /**
   * True while a recording is re-run (`ooda replay`, or a crashed session's
   * last signals on resume). The world already saw this action once: I/O
   * done through {@link ToolContext.effect} gets its recorded outcome; a tool
   * that acts on the world otherwise (runs a program, writes a file, sends a
   * request) must not do it again, and fails instead (see {@link notRerun}).
   */
  readonly replaying?: boolean;
}

/** What a tool sees when it runs: the proposal context and the run's signals (operators/toolRunScope.ts). */
export interface ToolContext extends ProposalContext {
  /**
   * Aborted when act stops waiting for this run: `toolTimeoutMs` passed, or
   * the run abandoned the pass (it stopped). A tool doing real I/O passes it
   * on (or a {@link ToolContext.timeout} signal, which aborts with it) so the
   * work stops too. Its reason is the ToolFailure act reported. Made on
   * first use (an enumerable getter: a spread copy of the context has it).
   */
  readonly signal: AbortSignal;
  /**
   * A signal aborted after `ms` of the runtime's scheduler time (reason: a
   * `TimeoutError` DOMException, like a Node timeout signal), or with
   * {@link ToolContext.signal}'s reason when that aborts first. Use it, not a
   * Node timer, for a tool's own time limit: it follows the injected clock
   * (real time by default; on virtual time it fires when virtual time reaches
   * it), and its timer is released when the run ends. An `ms` no timer can
   * honour (none, NaN, negative, over 2^31 − 1) throws, naming it.
   */
  timeout(ms: number): AbortSignal;
  /**
   * Runs `work`, the tool's I/O (a read, a request, a program), as a
   * recorded effect, and resolves with its value as JSON carries it (what a
   * store records; typed so, {@link AsJson}: a Date is a string), or rejects with its error rebuilt from its name, message
   * and `code`. A run with a store records the outcome and the scheduler
   * time it came; a re-run of that recording (`replaying`) gets the recorded
   * outcome instead, at once (before any timer of the run could give up on
   * it, as none had when it came), in the order the outcomes came, and
   * `work` does not run, so the session replays identically. With no outcome recorded (a recording older than
   * effects, or cut by a crash), a re-run runs `work` again only if it is
   * `repeatable` (a read); otherwise the effect fails with {@link notRerun}.
   * Once the run is given up on (`signal` aborts) the effect rejects with
   * that reason. `name` says what it does (`read notes.txt`, `run ls -l`).
   */
  effect<T>(name: string, work: (signal: AbortSignal) => T | PromiseLike<T>, options?: { repeatable?: boolean }): Promise<AsJson<T>>;
}

/** What scoring sees: the mind and the goal being decided for. */
export interface ScoringContext {
  readonly mind: Mind;
  readonly goal: Goal;
  /** Goal-adjacent knowledge triples found by orient. */
  readonly adjacentTriples: number;
  readonly pressure: number;
}

/**
 * How decide computes a tool's base score:
 * - `core`: hand-tuned, state-dependent (seed 001's core tools);
 * - `semantic`: hypervector similarity between the goal text and the tool's
 *   keyword profile; `similarity × multiplier` when similarity ≥ threshold, else
 *   the tool is no candidate for the goal (not scored, not planned);
 * - `adaptive`: a state-dependent score never below `floor`.
 */
export type ToolScoring =
  | { kind: 'core'; base(ctx: ScoringContext): number }
  | { kind: 'semantic'; threshold: number; multiplier: number }
  | { kind: 'adaptive'; floor: number; base(ctx: ScoringContext): number };

export interface Tool<I = any> {
  readonly name: string;
  readonly description: string;
  readonly keywords: readonly string[];
  readonly danger: Danger;
  readonly capabilities: readonly string[];
  readonly input: z.ZodType<I>;
  readonly scoring: ToolScoring;
  /** Earns seed 001's pressure bonus when memory is nearly full. */
  readonly consolidates?: boolean;
  /**
   * The danger of one run when it depends on the input (file_io: a write is
   * dangerous, a read cautious; seed 001's "Cautious/Danger"). Shadow vetoes
   * and the policy skill judge a decided action by it; scoring, which comes
   * before any input, by `danger`. Default: `danger` for every input.
   */
  dangerOf?(input: unknown): Danger;
  /** The input this tool would run with for the goal in context. */
  propose(ctx: ProposalContext): unknown;
  /** The output, or a Promise (any thenable) of it: awaited, and timed out after `toolTimeoutMs`. */
  execute(input: I, ctx: ToolContext): ToolOutput | PromiseLike<ToolOutput>;
}

const DANGER_LEVELS: readonly string[] = ['safe', 'cautious', 'dangerous', 'critical'] satisfies Danger[];

/** The danger of running `tool` with `input` ({@link Tool.dangerOf}); one that throws, or answers no danger level, is a bug of that tool. */
export function actionDanger(tool: Tool, input: unknown): Danger {
  if (!tool.dangerOf) return tool.danger;
  let danger: unknown;
  try {
    danger = tool.dangerOf(input);
  } catch (error) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new ToolBug(tool.name, cause, `dangerOf threw: ${cause.message}`);
  }
  if (typeof danger === 'string' && DANGER_LEVELS.includes(danger)) return danger as Danger;
  throw new ToolBug(tool.name, new TypeError(`dangerOf returned ${JSON.stringify(danger) ?? String(danger)}: expected one of ${DANGER_LEVELS.join(', ')}`));
}

/**
 * A failure a tool expects and reports (invalid input, a refused path, a host
 * not allowed, a timeout). Recover treats it as transient: state is kept. An
 * ordinary `Error` a tool throws or rejects with is wrapped in one (transient
 * too, see mind/toolRun.ts), and so is a `SyntaxError` (seed 004 keeps
 * state on a syntax error); only a programming error (`TypeError`,
 * `ReferenceError`, `RangeError`, …) is treated as a bug (critical: the mind
 * is rolled back to the signal's checkpoint).
 */
export class ToolFailure extends Error {
  constructor(
    readonly tool: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${tool}: ${message}`, options);
    this.name = 'ToolFailure';
  }
}

/** The failure of a tool that would act on the world while a recording is re-run (`ToolContext.replaying`); `action` says what it would have done, e.g. `run ls -l`. */
export function notRerun(tool: string, action: string): ToolFailure {
  return new ToolFailure(tool, `not done again while a recording is re-run (replay or crash recovery): it would ${action}`);
}

/**
 * A programming error (`TypeError`, `ReferenceError`, …) inside a tool's
 * `execute`, or anything its input schema throws as it parses: a bug of that
 * tool, critical (the mind is rolled back), and the attempt counts as a
 * failed run of the tool (see mind/rolledBackAttempt.ts).
 * It keeps the error's message; the error itself is its `cause`. A bug
 * anywhere else in the cycle (a stage, an operator between stages) is not
 * wrapped, and no tool is blamed for it.
 */
export class ToolBug extends Error {
  constructor(
    readonly tool: string,
    error: Error,
    /** What the bug reads as; default the error's own message. */
    message = error.message,
  ) {
    super(message, { cause: error });
    this.name = `ToolBug(${error.name})`;
  }
}
