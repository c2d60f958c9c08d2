/**
 * act: runs the decided tool (unless the pass was vetoed), evaluates the goal
 * (seed 001: Completed / Advanced / Failed, stall decomposition, provenance)
 * and records an `action` event plus a `goal` event per goal change (and a
 * `question` event when user_interact asked something). A tool's
 * `followUp` becomes a feedback signal at depth + 1. A tool that throws is
 * recorded as a failed action and re-thrown as a ToolFailure for recover.
 * An asynchronous tool that has not settled after `toolTimeoutMs` (default
 * 30 000; 0: no limit) on the runtime's scheduler fails the same way
 * (`timed out after N ms`); its late result is discarded. When the run
 * abandons the pass (`runtime.abandon$`), the wait ends without settling.
 * Either way the tool's `ctx.signal` aborts, so its I/O stops too; its
 * `ctx.timeout` timers run on the runtime's scheduler (toolRunScope.ts).
 * On a virtual clock, a pending run holds the clock's next step while it
 * does real work (streams/realWork.ts).
 *
 *   cycles:  --c--|
 *   act():   --c--|        (sync tools)
 *   act():   --~~~c--|     (async tools: c is emitted when the tool settles)
 */
import { from, takeUntil, throwError, timeout, type OperatorFunction } from 'rxjs';
import { evaluateOutcome, type Outcome, type ToolResult } from '../mind/goalEvaluation.js';
import { ToolFailure, type ToolOutput } from '../mind/tool.js';
import { runTool } from '../mind/toolRun.js';
import type { Decision } from '../mind/toolSelection.js';
import { record, type Cycle } from '../streams/cycle.js';
import { holdClockFor } from '../streams/realWork.js';
import type { Runtime } from '../streams/runtime.js';
import { recordGoalChanges } from './changeEvents.js';
import { toolContext } from './toolContext.js';
import { toolRunScope, type ToolRunScope } from './toolRunScope.js';
import { stage } from './stage.js';

export function act(runtime: Runtime): OperatorFunction<Cycle, Cycle> {
  return stage((cycle) => actStage(runtime, cycle));
}

/** The function behind {@link act}: synchronous unless the tool is asynchronous. */
export function actStage(runtime: Runtime, cycle: Cycle): Cycle | Promise<Cycle> {
  const decision = cycle.decision;
  // Acted already (act twice in a custom cycle): a tool runs once per pass.
  if (!decision || !cycle.goal || cycle.outcome) return cycle;
  if (cycle.veto !== undefined) return finish(runtime, cycle, decision, { kind: 'vetoed', reason: cycle.veto });
  const scope = toolRunScope(runtime.scheduler);
  let output: ToolOutput | Promise<ToolOutput>;
  try {
    output = runTool(decision, toolContext(runtime, cycle.goal, scope, decision.tool));
  } catch (error) {
    scope.end();
    throw failed(runtime, cycle, decision, error);
  }
  if (output instanceof Promise) {
    return settled(runtime, cycle, decision.tool, output, scope).then(
      (settled) => finish(runtime, cycle, decision, { kind: 'ok', output: settled }),
      (error: unknown) => {
        throw failed(runtime, cycle, decision, error);
      },
    );
  }
  scope.end();
  return finish(runtime, cycle, decision, { kind: 'ok', output });
}

/**
 * The tool's promise, failing with a ToolFailure once `toolTimeoutMs` passes
 * on the scheduler first; never settling once the run abandons the pass.
 * Meanwhile `runtime.waitingOn` names the tool and holds the pass's events
 * so far, for the abandoned pass. A run given up on (timed out, abandoned)
 * has its scope aborted, so the tool's I/O stops; either way the scope ends.
 */
function settled(runtime: Runtime, cycle: Cycle, tool: string, output: Promise<ToolOutput>, scope: ToolRunScope): Promise<ToolOutput> {
  const ms = runtime.config.toolTimeoutMs;
  const tooLate = () => throwError(() => new ToolFailure(tool, `timed out after ${ms} ms`));
  // On a virtual clock the run's real work (the thread pool, I/O) holds the next step, unless the run waits on that clock itself or was given up on.
  holdClockFor(runtime.scheduler, output, () => !scope.ended && !scope.waitsOnClock);
  const waited$ = ms === 0 ? from(output) : from(output).pipe(timeout({ first: ms, scheduler: runtime.scheduler, with: tooLate }));
  runtime.waitingOn = { tool, goalId: cycle.goal!.id, events: cycle.events };
  const done = () => (runtime.waitingOn = undefined);
  let answered = false;
  const givenUp = (reason: unknown) => (scope.abort(reason), scope.end());
  return new Promise((resolve, reject) =>
    waited$.pipe(takeUntil(runtime.abandon$)).subscribe({
      next: (value) => ((answered = true), done(), scope.end(), resolve(value)),
      error: (error: unknown) => (done(), givenUp(error), reject(error)),
      // Completed without a value: the run abandoned the pass (abandonable reports it, reading waitingOn).
      complete: () => answered || givenUp(new ToolFailure(tool, 'abandoned: the run stopped while it ran')),
    }),
  );
}

/** Records a tool failure as a failed action; returns the error for recover. */
function failed(runtime: Runtime, cycle: Cycle, decision: Decision, error: unknown): unknown {
  if (error instanceof ToolFailure) finish(runtime, cycle, decision, { kind: 'failed', error: error.message });
  return error;
}

function finish(runtime: Runtime, cycle: Cycle, decision: Decision, result: ToolResult): Cycle {
  return recordOutcome(runtime, cycle, decision, result, evaluateOutcome(runtime.mind, decision, result, runtime.now()));
}

/**
 * Records an evaluated tool run on the pass: its outcome, the `action` event,
 * the goal changes (and the question asked), and the tool's follow-up signal.
 */
export function recordOutcome(runtime: Runtime, cycle: Cycle, decision: Decision, result: ToolResult, outcome: Outcome): Cycle {
  const { mind } = runtime;
  cycle.outcome = outcome;
  record(runtime, cycle, 'action', {
    goalId: decision.goalId,
    tool: decision.tool,
    status: outcome.status,
    summary: outcome.summary.slice(0, 400),
    progress: outcome.progress,
    input: decision.input,
    stateHash: mind.stateHash(),
    facts: mind.graph.knowledgeSize,
    memorySize: mind.memory.size,
    episodes: mind.episodes.size,
  });
  if (result.kind === 'ok' && result.output.asked) {
    const { questionId, text, timeoutMs } = result.output.asked;
    record(runtime, cycle, 'question', { questionId, goalId: decision.goalId, text, timeoutMs, status: 'asked' });
  }
  recordGoalChanges(runtime, cycle, outcome.changes);
  if (result.kind === 'ok' && result.output.followUp && mind.goals.get(decision.goalId)?.status === 'Active') {
    cycle.followUp = {
      type: 'feedback',
      depth: cycle.signal.depth + 1,
      meta: cycle.signal.meta,
      at: runtime.now(),
      goalId: decision.goalId,
      tool: decision.tool,
      reason: result.output.followUp,
    };
  }
  return cycle;
}
