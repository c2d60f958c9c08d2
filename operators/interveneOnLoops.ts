/**
 * interveneOnLoops: the loop-detection watcher, a default of every agent. It
 * feeds each executed action (a pass with a decision and an outcome) to an
 * incremental {@link LoopDetector} for the goal the action worked on (a loop
 * is the agent repeating itself on one goal: one kg_query that completes each
 * of three goals is no loop), and, on a loop:
 *
 * - records a `loop` event;
 * - suspends the goal the action worked on and raises the intervention goal
 *   "INTERVENTION: break loop — <type> of <tool>" at high priority, so the
 *   next cycle works on it (and plans for it, if plans are on);
 * - asks plan-keeping extensions to drop the suspended goal's plan
 *   (`PlanDropper.dropPlan`);
 * - records `goal` events for both changes, a `plan` event (`superseded`) for
 *   each dropped plan whose change its extension reports, and an
 *   `intervention` event with a first-person narrative line ("I noticed I
 *   was repeating kg_query …").
 *
 * The goal's detector then clears (and cools down for `cooldownActions`), so
 * one loop raises one intervention; a goal's detector is dropped when the goal
 * completes or fails. The detectors are kept with the mind (its `loops`
 * extension, mind/loopDetectors.ts), so a snapshot holds them and a session
 * resumed from one goes on catching the loops the run had begun. Actions on an intervention goal are not fed to the
 * detector: the intervention is bounded by its own stall threshold. When an
 * intervention goal ends (completed or failed), the goal it suspended resumes
 * (`goal` event, change `resumed`).
 *
 *   passes:              --a--a--a--b--b--c--|
 *   interveneOnLoops(rt): --a--a--A--b--b--C--|   (A: a with loop + goal + intervention events;
 *                                                  C: c, which ended the intervention goal, with a `resumed` goal event)
 *
 * Settings: the agent config's `loopDetection` section (see
 * `resolveLoopConfig`); invalid values become `warning` events on the first
 * pass and take their defaults. The `thinkingTools` the section sets that
 * are no tool registered when the run starts (misspellings, most likely) are
 * one warning too, on the run's first pass, naming them and the registered
 * tools; they stay in the set, so a tool registered later under such a name
 * counts. `enabled: false` turns the watcher off.
 */
import { defer, map, type OperatorFunction } from 'rxjs';
import type { Goal } from '../mind/goals.js';
import { endIntervention, isInterventionGoal, startIntervention } from '../mind/intervention.js';
import { resolveLoopConfig, type LoopConfigWarning } from '../mind/loopConfig.js';
import type { ActionRecord } from '../mind/loopDetection.js';
import { LoopDetectors } from '../mind/loopDetectors.js';
import type { Watcher } from '../streams/cycle.js';
import { record, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { recordGoalChanges, recordPlanChanges } from './changeEvents.js';

export const interveneOnLoops: Watcher = (runtime: Runtime): OperatorFunction<Cycle, Cycle> => {
  const { config, warnings } = resolveLoopConfig(runtime.config.loopDetection);
  // Kept with the mind, so a snapshot holds them (mind/loopDetectors.ts).
  const detectors = config.enabled ? LoopDetectors.attach(runtime.mind, config) : undefined;
  return (passes$) => {
    if (!detectors) return passes$;
    return defer(() => {
      const thinking = new Set(config.thinkingTools);
      const written = isSet(runtime.config.loopDetection, 'thinkingTools') && !warnings.some((w) => w.key === 'thinkingTools');
      let pendingWarnings = written ? [...warnings, ...unknownThinkingTools(runtime, thinking)] : warnings;
      return passes$.pipe(
        map((cycle) => {
          for (const warning of pendingWarnings) {
            record(runtime, cycle, 'warning', { message: warning.message, key: `loopDetection.${warning.key}` });
          }
          pendingWarnings = [];
          settleEndedGoals(runtime, cycle, detectors);
          const action = executedAction(runtime, cycle, thinking, config.paramAware);
          if (!action) return cycle;
          const loop = detectors.for(action.goal.id).push(action.record);
          if (action.goal.status === 'Completed' || action.goal.status === 'Failed') detectors.forgetGoal(action.goal.id);
          if (!loop) return cycle;
          const intervention = startIntervention(runtime.mind, action.goal.id, loop, {
            priority: config.interventionPriority,
            stallThreshold: config.interventionCycles,
            at: runtime.now(),
          });
          record(runtime, cycle, 'loop', { ...loop, goalId: action.goal.id, intervened: intervention !== null });
          if (!intervention) return cycle;
          recordGoalChanges(runtime, cycle, intervention.changes);
          recordPlanChanges(runtime, cycle, intervention.planChanges);
          for (const message of intervention.problems) record(runtime, cycle, 'error', { severity: 'critical', message, rolledBack: false });
          record(runtime, cycle, 'intervention', {
            goalId: intervention.goal.id,
            description: intervention.goal.description,
            suspendedGoalId: intervention.suspended.id,
            loopType: loop.type,
            actionType: loop.actionType,
            narrative: intervention.narrative,
            planDropped: intervention.planDropped,
          });
          return cycle;
        }),
      );
    });
  };
};

/** Whether the `loopDetection` section sets `key` (the default is not checked against the tools: a mind without `reason` is no mistake). */
function isSet(section: unknown, key: string): boolean {
  return section !== null && typeof section === 'object' && (section as Record<string, unknown>)[key] !== undefined;
}

/** A warning naming the `thinkingTools` that are no registered tool (none when every one is). */
function unknownThinkingTools(runtime: Runtime, thinking: ReadonlySet<string>): LoopConfigWarning[] {
  const unknown = [...thinking].filter((name) => !runtime.mind.tools.has(name));
  if (unknown.length === 0) return [];
  const names = unknown.map((name) => JSON.stringify(name)).join(', ');
  const registered = runtime.mind.tools.list().map((tool) => tool.name).join(', ') || 'none';
  const message =
    `loopDetection.thinkingTools names ${unknown.length === 1 ? 'a tool that is' : 'tools that are'} not registered: ${names} (registered tools: ${registered}); ` +
    'a misspelling? Such a name marks no action as thinking unless a tool of that name is registered later';
  return [{ key: 'thinkingTools', message }];
}

/** The pass's executed action, unless there is none or it worked on an intervention goal. */
function executedAction(runtime: Runtime, cycle: Cycle, thinking: ReadonlySet<string>, paramAware: boolean): { goal: Goal; record: ActionRecord } | null {
  const { decision, outcome } = cycle;
  if (!decision || !outcome) return null;
  const goal = runtime.mind.goals.get(decision.goalId);
  if (!goal || isInterventionGoal(goal)) return null;
  // Params as a snapshot holds them (JSON drops undefined keys), so a restored detector compares them alike.
  const params = paramAware && decision.input !== undefined ? (JSON.parse(JSON.stringify(decision.input)) as unknown) : decision.input;
  const action: ActionRecord = { type: decision.tool, params, outcome: outcome.status };
  if (thinking.has(decision.tool)) action.thinking = true;
  let stateHash: string | undefined;
  for (const event of cycle.events) if (event.kind === 'action') stateHash = event.stateHash;
  action.stateHash = stateHash ?? runtime.mind.stateHash();
  return { goal, record: action };
}

/** Drops the detectors of the goals that ended in this pass, and resumes the goals suspended for intervention goals that ended. */
function settleEndedGoals(runtime: Runtime, cycle: Cycle, detectors: LoopDetectors): void {
  const endedInterventions: string[] = [];
  for (const event of cycle.events) {
    if (event.kind !== 'goal' || (event.status !== 'Completed' && event.status !== 'Failed')) continue;
    detectors.forgetGoal(event.goalId);
    if (isInterventionGoal(event)) endedInterventions.push(event.goalId);
  }
  for (const goalId of endedInterventions) recordGoalChanges(runtime, cycle, endIntervention(runtime.mind, goalId));
}
