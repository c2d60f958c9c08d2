/**
 * verify: between decide and act, checks the decided action.
 *
 * 1. The psyche's shadow: a matching veto pattern ("rm -rf", "drop table",
 *    a critical tool, …) vetoes the pass; act records a `vetoed` action and
 *    runs nothing. An input a skill proposes or replaces (step 2) is checked
 *    again, so the shadow judges the input that runs.
 * 2. The skills, in descending priority (seed 004): the highest-priority
 *    triggered proposal sets the input, verifiers approve, replace the input
 *    (a second `decision` event shows the new input and why) or reject. A
 *    rejection vetoes the pass, makes the psyche avoid that tool for this goal
 *    for `avoidCycles` cycles, and feeds the reason back as a `feedback`
 *    follow-up (depth + 1), so the next decision sees it and avoids the tool.
 *    A skill that throws is reported as an `error` event naming it; the others
 *    keep working and the pass goes on.
 *
 *   cycles:           --c--|
 *   verify(rt, reg):  --c--|   (c.veto set when vetoed or rejected; c.followUp set on rejection)
 *
 * Options: avoidCycles (default 3).
 */
import type { OperatorFunction } from 'rxjs';
import { checkNumberOption, wholeNumber } from '../mind/optionCheck.js';
import { Psyche } from '../mind/psyche.js';
import type { SkillRegistry } from '../mind/skills.js';
import { record, vetoCycle, type Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import { recordDecision } from './decide.js';
import { stage } from './stage.js';

export interface VerifyOptions {
  /** Cycles a rejected tool stays discouraged for its goal. Default 3; a whole number ≥ 0 (anything else throws, naming it). */
  avoidCycles?: number;
}

/** The cycles verify has reviewed (weakly held). */
const verified = new WeakSet<Cycle>();

export function verify(runtime: Runtime, skills: SkillRegistry, options: VerifyOptions = {}): OperatorFunction<Cycle, Cycle> {
  checkNumberOption('verify', 'avoidCycles', options.avoidCycles, wholeNumber(0), 'a whole number ≥ 0');
  return stage((cycle) => verifyStage(runtime, skills, cycle, options));
}

/** The function behind {@link verify}. */
export function verifyStage(runtime: Runtime, skills: SkillRegistry, cycle: Cycle, { avoidCycles = 3 }: VerifyOptions = {}): Cycle {
  const { decision, goal, signal } = cycle;
  // Verified already (verify twice in a custom cycle): the skills review a pass once.
  if (!decision || !goal || cycle.veto !== undefined || verified.has(cycle)) return cycle;
  verified.add(cycle);
  const { mind } = runtime;
  const psyche = Psyche.of(mind);
  const tool = mind.tools.get(decision.tool);
  const pattern = tool ? psyche?.veto(tool, decision.input, goal.id) : undefined;
  if (pattern) return vetoCycle(cycle, `shadow veto "${pattern.name}": ${pattern.reason}`);
  if (skills.size === 0) return cycle;

  const review = skills.review({ mind, goal, signal, now: runtime.now }, { goalId: goal.id, tool: decision.tool, input: decision.input });
  for (const error of review.errors) {
    record(runtime, cycle, 'error', {
      severity: 'transient',
      message: `skill "${error.skill}" failed in ${error.phase}: ${error.message}`,
      rolledBack: false,
      signalType: signal.type,
      depth: signal.depth,
      skill: error.skill,
    });
  }
  if (review.changes.length > 0) {
    decision.input = review.action.input;
    const why = review.changes.map((c) => `${c.kind === 'propose' ? 'input proposed' : 'input replaced'} by skill "${c.skill}": ${c.reason}`).join('; ');
    decision.reason = `${decision.reason}; ${why}`;
    recordDecision(runtime, cycle, decision);
  }
  if (review.rejected) {
    const reason = `rejected by skill "${review.rejected.skill}": ${review.rejected.reason}`;
    vetoCycle(cycle, reason);
    psyche?.avoid(goal.id, decision.tool, reason, avoidCycles);
    cycle.followUp = { type: 'feedback', depth: signal.depth + 1, meta: signal.meta, at: runtime.now(), goalId: goal.id, tool: decision.tool, reason };
    return cycle;
  }
  // The shadow judges the input that will run: one a skill gave is checked again.
  const late = review.changes.length > 0 && tool ? psyche?.veto(tool, decision.input, goal.id) : undefined;
  if (late) return vetoCycle(cycle, `shadow veto "${late.name}": ${late.reason} (on the input skill "${review.changes.at(-1)!.skill}" gave)`);
  return cycle;
}
