/**
 * Plain-text renderings of plans and reflections, for `ooda plan`,
 * `ooda reflect`, the REPL and the `plan` command's result.
 */
import type { Mind } from '../mind/mind.js';
import { Planner } from '../mind/planner.js';
import type { EventBody } from './events.js';

/** The current plan of each active goal, one block per goal. */
export function formatPlans(mind: Mind): string {
  const goals = mind.goals.active();
  if (goals.length === 0) return 'no active goals';
  const planner = Planner.of(mind);
  const blocks = goals.map((goal) => {
    const head = `${goal.id} "${goal.description}" (priority ${goal.priority}, ${goal.cyclesWorked} cycle(s) worked)`;
    const plan = planner?.current(goal.id);
    if (!plan) return `${head}\n  no plan yet`;
    const steps = plan.steps.map((s) => `    ${s.index}. ${`[${s.status}]`.padEnd(11)} ${s.tool.padEnd(18)} ${s.rationale}`);
    const left = plan.departures > 0 ? `, left ${plan.departures}×` : '';
    return `${head}\n  ${plan.id}: attempt ${plan.attempt}, ${plan.strategy} strategy, ${plan.order}, ${plan.status}${left}\n${steps.join('\n')}`;
  });
  return blocks.join('\n');
}

/** A reflection event's content: its adjustments, the tools' success rates and the psyche's evolution. */
export function formatReflection(reflection: EventBody<'reflection'>): string {
  const lines = [`reflection ${reflection.number} (${reflection.trigger}) over ${reflection.cycles} cycle(s); memory pressure ${reflection.pressure.toFixed(2)}`];
  lines.push(reflection.adjustments.length ? 'adjustments:' : 'adjustments: none');
  for (const a of reflection.adjustments) {
    if (a.kind === 'boost' || a.kind === 'demote') lines.push(`  ${a.kind} ${a.goalId} priority ${a.from} → ${a.to}: ${a.reason}`);
    else if (a.kind === 'decompose') lines.push(`  decompose ${a.goalId} into ${a.children.join(', ')}: ${a.reason}`);
    else lines.push(`  consolidate: ${a.freed} entries into ${a.episodes} episode(s): ${a.reason}`);
  }
  if (reflection.tools.length) {
    lines.push('tools:');
    for (const t of reflection.tools) lines.push(`  ${t.tool.padEnd(18)} ${t.ok}/${t.runs} ok (${t.rate.toFixed(2)})`);
  }
  if (reflection.psyche) {
    const weights = reflection.psyche.weights.map((w) => `${w.name} ${w.before.toFixed(2)}→${w.after.toFixed(2)}`).join(', ');
    lines.push(`psyche: dominant ${reflection.psyche.dominant}, individuation ${reflection.psyche.individuation.toFixed(2)}; ${weights}`);
  }
  return lines.join('\n');
}
