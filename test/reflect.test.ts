import test from 'ava';
import { asyncScheduler, from, lastValueFrom, map } from 'rxjs';
import { Mind } from '../mind/mind.js';
import { Planner } from '../mind/planner.js';
import { Psyche } from '../mind/psyche.js';
import { Reflection } from '../mind/reflection.js';
import type { Decision } from '../mind/toolSelection.js';
import { builtinTools } from '../mind/tools/index.js';
import { reflect } from '../operators/reflect.js';
import { defaultConfig } from '../streams/config.js';
import type { Cycle } from '../streams/cycle.js';
import type { Draft } from '../streams/events.js';
import { createRuntime } from '../streams/runtime.js';
import { runCommand } from '../streams/localAgent.js';
import { createAgent } from '../streams/createAgent.js';
import { runMarbles } from '../streams/testing.js';

/** A finished pass; with a decision (and an ok action) unless `decided` is false. */
function pass(goalId: string, decided = true): Cycle {
  const cycle: Cycle = { signal: { type: 'tick', depth: 0, meta: {} }, events: [] };
  if (decided) {
    cycle.decision = { goalId, tool: 'kg_query', input: {}, cycle: 0 } as unknown as Decision;
    cycle.outcome = { status: 'ok', summary: 'ok', progress: 'none', matched: [], changes: [] };
  }
  return cycle;
}

test('marble: over a 15-cycle cold stream, reflection fires after cycles 5, 10 and 15 and at no other time', (t) => {
  runMarbles(
    (actual, expected) => t.deepEqual(actual, expected),
    ({ cold, expectObservable }, scheduler) => {
      const mind = new Mind({ tools: builtinTools() });
      const goal = mind.addGoal({ description: 'find moons of Mars' });
      const runtime = createRuntime({ mind, config: defaultConfig(), scheduler });
      // 18 passes: 15 cycles and, at c, h and o, passes that decided nothing (a fact, a command).
      const values: Record<string, Cycle> = {};
      for (const key of 'abcdefghijklmnopqr') values[key] = pass(goal.id, !'cho'.includes(key));
      const reflected = cold('abcdefghijklmnopqr|', values).pipe(
        reflect(runtime, { interval: 5 }),
        map((c) => c.events.filter((e) => e.kind === 'reflection').length),
      );
      // The 5th, 10th and 15th cycles are the passes f, l and r.
      expectObservable(reflected).toBe('ooooorooooorooooor|', { o: 0, r: 1 });
    },
  );
});

test('minCyclesWorked holds reflection back until that much work is done', (t) => {
  const mind = new Mind({ tools: builtinTools() });
  const goal = mind.addGoal({ description: 'find moons of Mars' });
  const runtime = createRuntime({ mind, config: defaultConfig(), scheduler: asyncScheduler });
  const fired: number[] = [];
  const op = reflect(runtime, { interval: 2, minCyclesWorked: 5 });
  const passes = Array.from({ length: 8 }, () => pass(goal.id));
  let n = 0;
  op(from(passes)).subscribe((c) => {
    n++;
    if (c.events.some((e) => e.kind === 'reflection')) fired.push(n);
  });
  t.deepEqual(fired, [6, 8]);
});

test('reflect refuses options that would silently never fire (or fire at once), naming them', (t) => {
  const runtime = createRuntime({ mind: new Mind({ tools: builtinTools() }), config: defaultConfig(), scheduler: asyncScheduler });
  const refused = (options: Record<string, unknown>, message: string) => t.throws(() => reflect(runtime, options), { message });
  refused({ minCyclesWorked: NaN }, 'reflect: minCyclesWorked must be a whole number ≥ 0, got NaN');
  refused({ minCyclesWorked: -1 }, 'reflect: minCyclesWorked must be a whole number ≥ 0, got -1');
  refused({ pressureThreshold: 7 }, 'reflect: pressureThreshold must be a number in (0, 1], got 7');
  refused({ decomposeAfter: 0 }, 'reflect: decomposeAfter must be a number in (0, 1], got 0');
  refused({ interval: 0 }, 'reflect: interval must be a whole number ≥ 1, got 0');
  t.notThrows(() => reflect(runtime, { interval: 1, minCyclesWorked: 0, pressureThreshold: 1, decomposeAfter: 0.5 }));
});

test('reflection boosts progress, demotes stagnation (superseding the plan), decomposes stalls and consolidates under pressure', (t) => {
  const mind = new Mind({ tools: builtinTools(), config: { ...defaultConfig(), workingMemoryCapacity: 10 } });
  const planner = Planner.attach(mind);
  const reflection = Reflection.attach(mind);
  const moving = mind.addGoal({ description: 'find moons of Mars', priority: 100 });
  const stuck = mind.addGoal({ description: 'find rings of Venus', priority: 100, stallThreshold: 10 });
  const stalled = mind.addGoal({ description: 'map the sky', criteria: 'stars, planets and orbits', priority: 100, stallThreshold: 6 });
  planner.steer(stuck, () => 0);
  mind.goals.update(moving, { cyclesWorked: 2, lastProgressCycle: 2, matched: ['moon'] });
  mind.goals.update(stuck, { cyclesWorked: 2 });
  mind.goals.update(stalled, { cyclesWorked: 3 });
  for (let i = 0; i < 8; i++) mind.remember({ content: `note ${i}`, symbols: [], kind: 'Action', at: 0, relevance: 0.9, goalId: moving.id });

  const report = reflection.reflect('command', 0);
  t.deepEqual(
    report.adjustments.map((a) => [a.kind, 'goalId' in a ? a.goalId : '-']),
    [['boost', moving.id], ['demote', stuck.id], ['decompose', stalled.id], ['consolidate', '-']],
  );
  t.is(mind.goals.get(moving.id)!.priority, 110);
  t.is(mind.goals.get(stuck.id)!.priority, 90);
  t.is(mind.goals.get(stalled.id)!.status, 'Suspended');
  const decomposed = report.adjustments.find((a) => a.kind === 'decompose')!;
  t.deepEqual('children' in decomposed && decomposed.children.map((id) => mind.goals.get(id)!.description), ['stars', 'planets', 'orbits']);
  // The boost says what the progress was: criteria terms newly matched, or knowledge added.
  t.is(report.adjustments[0]!.reason, 'matched 1 more criteria term(s) in 2 cycle(s) (1 of 2 criteria term(s) matched)');
  t.regex(report.adjustments[1]!.reason, /no progress in 2 cycle\(s\); plan plan-1 superseded/);
  t.is(planner.current(stuck.id)!.status, 'Superseded');
  t.deepEqual(report.planChanges.map((c) => c.change), ['superseded']);
  t.true(mind.memory.pressure < 0.7, 'consolidation freed working memory');

  // Nothing happened since: the next reflection adjusts nothing.
  t.deepEqual(reflection.reflect('command', 0).adjustments, []);
  // Progress without a new criteria term (knowledge was added) is named as such.
  mind.goals.update(mind.goals.get(moving.id)!, { cyclesWorked: 3, lastProgressCycle: 3 });
  t.like(reflection.reflect('command', 0).adjustments[0], { kind: 'boost', goalId: moving.id, reason: 'added knowledge in 1 cycle(s) (1 of 2 criteria term(s) matched)' });
});

test('the reflect command reflects at once and reports its adjustments; the psyche evolves with the tools\' success rates', async (t) => {
  const agent = createAgent({ session: 't', config: { heartbeatMs: 0, maxCycles: 3 } });
  const events$ = agent.run({ inputs: [from([{ source: 't', value: { type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' } }, { source: 't', value: { type: 'goal', description: 'find planets and moons of Jupiter' } }])] });
  const done = lastValueFrom(events$, { defaultValue: undefined });
  events$.connect();
  await done;
  const sageBefore = Psyche.of(agent.mind)!.archetypes.find((a) => a.name === 'sage')!.weight;
  const { result, events } = runCommand(agent, 'reflect');
  const reflection = events.find((e): e is Draft<'reflection'> => e.kind === 'reflection')!;
  t.is(reflection.trigger, 'command');
  t.is(reflection.number, 1);
  t.is(reflection.cycles, agent.mind.cycle);
  t.true(reflection.tools.some((tool) => tool.tool === 'kg_query' && tool.rate === 1));
  t.regex(result, /^reflection 1 over \d+ cycle\(s\): /);
  const sage = reflection.psyche!.weights.find((w) => w.name === 'sage')!;
  t.is(sage.before, sageBefore);
  t.true(sage.after > sage.before, 'kg_query succeeded, so the sage (which favours it) gained weight');
});
