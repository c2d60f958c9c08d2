/**
 * reflect: a windowed watcher over finished passes (seed 002). It counts
 * cycles (passes with a decision) and the tool runs they made, and every
 * `interval` cycles, once `minCyclesWorked` cycles have run, reflects: goal
 * progress → boost, stagnation → demote (plan superseded) or decompose,
 * memory pressure → consolidate, tool success rates → psyche evolution. The
 * adjustments are applied to the mind and recorded on the pass that closed
 * the window as one `reflection` event (plus `goal`, `plan` and
 * `consolidation` events for what they changed). The `reflect` command runs
 * {@link reflectNow} at once.
 *
 *   passes (d = with a decision):  --d-d-d-d-d-d-d-d-d-d--|
 *   reflect(rt, { interval: 5 }):  --d-d-d-d-R-d-d-d-d-R--|   (R: the pass gains a `reflection` event)
 *
 * Options: interval (default config.reflection.interval, 5), minCyclesWorked
 * (default config.reflection.minCyclesWorked, 0), pressureThreshold (0.7),
 * decomposeAfter (0.5).
 */
import { map, type OperatorFunction } from 'rxjs';
import { Reflection, type ReflectOptions, type ReflectionReport } from '../mind/reflection.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { recordGoalChanges, recordPlanChanges } from './changeEvents.js';
import { actionReport } from './followPlans.js';

export interface ReflectWatcherOptions extends ReflectOptions {
  /** Reflect every this many cycles. */
  interval?: number;
  /** No reflection before this many cycles have run. */
  minCyclesWorked?: number;
}

export function reflect(runtime: Runtime, options: ReflectWatcherOptions = {}): OperatorFunction<Cycle, Cycle> {
  const interval = options.interval ?? runtime.config.reflection.interval;
  const minCyclesWorked = options.minCyclesWorked ?? runtime.config.reflection.minCyclesWorked;
  if (!Number.isInteger(interval) || interval < 1) throw new Error(`reflect: interval must be a whole number ≥ 1, got ${interval}`);
  // Each compared with a count or a share: NaN, say, would compare false and silently never reflect, consolidate or decompose.
  if (!Number.isSafeInteger(minCyclesWorked) || minCyclesWorked < 0) throw new Error(`reflect: minCyclesWorked must be a whole number ≥ 0, got ${minCyclesWorked}`);
  for (const name of ['pressureThreshold', 'decomposeAfter'] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && value > 0 && value <= 1)) throw new Error(`reflect: ${name} must be a number in (0, 1], got ${value}`);
  }
  const reflection = Reflection.attach(runtime.mind);
  return map((cycle) => {
    if (!cycle.decision) return cycle;
    const report = actionReport(cycle);
    const total = reflection.note({ goalId: cycle.decision.goalId, tool: cycle.decision.tool, result: report?.result ?? null });
    if (total % interval === 0 && total >= minCyclesWorked) reflectNow(runtime, cycle, 'interval', options);
    return cycle;
  });
}

/** Reflects now and records the events on the pass; returns a one-line summary (the `reflect` command's result). */
export function reflectNow(runtime: Runtime, cycle: Cycle, trigger: 'interval' | 'command', options: ReflectOptions = {}): string {
  const report = Reflection.attach(runtime.mind).reflect(trigger, runtime.now(), options);
  recordGoalChanges(runtime, cycle, report.goalChanges);
  recordPlanChanges(runtime, cycle, report.planChanges);
  for (const a of report.adjustments) {
    if (a.kind === 'consolidate') record(runtime, cycle, 'consolidation', { episodes: a.episodes, freed: a.freed, reason: `reflection ${report.number}: ${a.reason}` });
  }
  const body: Parameters<typeof record<'reflection'>>[3] = {
    number: report.number,
    trigger,
    cycles: report.cycles,
    adjustments: report.adjustments,
    tools: report.tools,
    pressure: report.pressure,
  };
  if (report.psyche) body.psyche = report.psyche;
  record(runtime, cycle, 'reflection', body);
  return summarise(report);
}

/** One line per reflection: its number, window and adjustments. */
export function summarise(report: Pick<ReflectionReport, 'number' | 'cycles' | 'adjustments'>): string {
  const parts = report.adjustments.map((a) => {
    switch (a.kind) {
      case 'boost':
      case 'demote':
        return `${a.kind} ${a.goalId} ${a.from}→${a.to} (${a.reason})`;
      case 'decompose':
        return `decompose ${a.goalId} into ${a.children.join(', ')} (${a.reason})`;
      case 'consolidate':
        return `consolidate ${a.freed} entries into ${a.episodes} episode(s) (${a.reason})`;
    }
  });
  return `reflection ${report.number} over ${report.cycles} cycle(s): ${parts.length ? parts.join('; ') : 'no adjustments'}`;
}
