import test from 'ava';
import { filter, from, map, mergeMap, of, pipe, take, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { Mind } from '../mind/mind.js';
import type { Tool } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import { stage } from '../operators/stage.js';
import type { AgentOptions } from '../streams/createAgent.js';
import type { Cycle } from '../streams/cycle.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, flushSettled, goalStimulus, stimulus } from '../streams/testing.js';
import { runBounded as runBoundedOn, weatherTool } from './helpers/agentRuns.js';

const runBounded = (options: AgentOptions, goal = 'Find the moons of Jupiter') => runBoundedOn(options, goal);

const warnings = (events: AgentEvent[]) => events.flatMap((e) => (e.kind === 'warning' ? [e.message] : []));

/** A semantic tool about the weather only. */
const weather = weatherTool();

test('a goal no tool applies to fails at once, with a warning naming it, instead of the driver ticking on it forever', (t) => {
  const none = runBounded({ mind: new Mind({ tools: [] }), config: { maxCycles: 50 } });
  t.deepEqual(warnings(none), ['no tool applies to goal goal-1 "Find the moons of Jupiter" (no tool is registered): the goal fails']);
  t.like(none.findLast((e) => e.kind === 'goal'), { goalId: 'goal-1', status: 'Failed', change: 'failed' });
  t.like(none.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended and no goal is active' });

  const offTopic = runBounded({ mind: new Mind({ tools: [weather] }), config: { maxCycles: 50 } });
  t.deepEqual(warnings(offTopic), ['no tool applies to goal goal-1 "Find the moons of Jupiter" (none of the 1 registered tool(s) scores for it): the goal fails']);
  t.like(offTopic.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended and no goal is active' });
});

test('a custom cycle whose filter drops the driver’s passes ends them as they stood, warning once; the driver stops ticking on them', (t) => {
  const events = runBounded({ config: { maxCycles: 4 }, cycle: (s) => pipe(s.observe, s.orient, filter((c) => c.signal.type !== 'tick'), s.decide, s.act) });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended with goals still active (ticks decided nothing)' });
  t.deepEqual(warnings(events), [
    'the cycle operator emitted nothing for this tick pass (a filter between stages?): the pass ends as it stood, and so will later dropped passes, without another warning',
    'a driver tick ended without a decision while a goal is active (does the cycle operator leave out or filter out decide?): the driver waits for the next signal instead of ticking on',
  ]);
  // The dropped pass's events are not lost: its observation is there.
  t.is(events.filter((e) => e.kind === 'observation').length, 1);
});

test('a custom cycle that decides but never acts (act left out, or before decide) warns once, naming the decision; no tool runs', (t) => {
  const cycles: NonNullable<AgentOptions['cycle']>[] = [(s) => pipe(s.observe, s.orient, s.act, s.decide), (s) => pipe(s.observe, s.orient, s.decide)];
  for (const cycle of cycles) {
    const events = runBounded({ config: { maxCycles: 3 }, cycle });
    t.deepEqual(warnings(events), [
      `this pass decided on ${events.find((e) => e.kind === 'decision')!.tool} for goal goal-1 but nothing acted on it (does the cycle operator leave out act, or put it before decide?): the tool did not run, and so will later decisions not, without another warning`,
    ]);
    t.is(events.filter((e) => e.kind === 'decision').length, 3);
    t.is(events.filter((e) => e.kind === 'action').length, 0);
  }
  t.deepEqual(warnings(runBounded({ config: { maxCycles: 3 } })), [], 'the default cycle acts on every decision');
});

test('a custom cycle without decide: the driver waits for signals instead of spinning; each signal allows one more tick', (t) => {
  const events: AgentEvent[] = [];
  const facts = ['Io', 'Europa'].map((moon) => stimulus({ type: 'fact', subject: 'Jupiter', predicate: 'has moon', object: moon }));
  const scheduler = new TestScheduler(() => undefined);
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { config: { maxCycles: 3 }, cycle: (s) => pipe(s.observe, s.orient) });
    const input$ = cold('g-a-b|', { g: goalStimulus('Find the moons of Jupiter'), a: facts[0]!, b: facts[1]! });
    agentEvents(agent, { inputs: [input$] }).pipe(take(500)).subscribe((e) => events.push(e));
  });
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'input ended with goals still active (ticks decided nothing)' });
  t.is(events.filter((e) => e.kind === 'observation').length, 3, 'one tick after the goal and one after each fact');
  t.is(warnings(events).length, 1);
});

test('a custom cycle that emits a pass twice ends it once, warning once: its events are not doubled and no loop is made up', (t) => {
  const events = runBounded({ config: { maxCycles: 3 }, cycle: (s) => pipe(s.observe, s.orient, s.decide, s.act, mergeMap((c) => of(c, c))) });
  t.deepEqual(warnings(events), [
    'the cycle operator emitted this goal pass more than once (a mergeMap or repeat between stages?): only its first emission counts, and the stages after it pass a cycle they have already run on through unchanged (its tool is not run again); so for later passes, without another warning',
  ]);
  const seqsOf = (kind: string) => events.filter((e) => e.kind === kind).length;
  t.is(seqsOf('action'), 3, 'one action per cycle');
  t.is(seqsOf('loop'), 0, 'no loop from actions seen twice');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
});

test('a custom cycle that emits a pass twice before act runs its tool once per pass: the stages after it pass the repeated cycle through', (t) => {
  let runs = 0;
  const counted = builtinTools().map((tool): Tool => ({ ...tool, execute: (input, ctx) => (runs++, tool.execute(input, ctx)) }));
  const events = runBounded({
    mind: new Mind({ tools: counted }),
    config: { maxCycles: 3 },
    cycle: (s) => pipe(s.observe, s.orient, s.decide, mergeMap((c) => of(c, c)), s.act, s.consolidate),
  });
  t.is(warnings(events).length, 1);
  const actions = events.filter((e) => e.kind === 'action');
  t.is(actions.length, 3, 'one action per cycle');
  t.is(runs, 3, 'the tool ran once per cycle, not twice');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
});

test('a custom cycle that passes on something other than the cycle (a map or stage that returns nothing, a copy without events) is a critical error naming it; the stream never errors', async (t) => {
  const errorsOf = (events: AgentEvent[]) => events.flatMap((e) => (e.kind === 'error' ? [`${e.severity}: ${e.message}`] : []));
  const cases: [string, AgentOptions['cycle'], string][] = [
    ['map at the end', (s) => pipe(s.observe, s.orient, s.decide, s.act, map(() => undefined as unknown as Cycle)), 'the cycle operator emitted undefined, not a cycle: each operator in it passes on the cycle it was given'],
    ['map between stages', (s) => pipe(s.observe, map(() => 42 as unknown as Cycle), s.orient, s.decide, s.act), 'the operator before a stage emitted 42, not a cycle: an operator between stages passes on the cycle it was given'],
    ['copy without events', (s) => pipe(s.observe, map((c) => ({ signal: c.signal }) as Cycle), s.orient, s.decide, s.act), 'the operator before a stage emitted an object without an events array, not a cycle: an operator between stages passes on the cycle it was given'],
    ['stage returning nothing', (s) => pipe(s.observe, s.orient, s.decide, s.act, stage(function noCycle() { return undefined as unknown as Cycle; })), 'a stage step (noCycle) returned undefined, not a cycle: a step returns the cycle it was given (or a promise of it)'],
    ['async stage resolving nothing', (s) => pipe(s.observe, stage(async () => null as unknown as Cycle), s.orient, s.decide, s.act), 'a stage step returned null, not a cycle: a step returns the cycle it was given (or a promise of it)'],
  ];
  for (const [name, cycle, message] of cases) {
    const scheduler = new VirtualTimeScheduler();
    const agent = createTestAgent(scheduler, { cycle, config: { maxCycles: 3 } });
    const events: AgentEvent[] = [];
    let failure: unknown;
    agentEvents(agent, { inputs: [from([goalStimulus('Find the moons of Jupiter')])] })
      .pipe(take(200))
      .subscribe({ next: (e) => events.push(e), error: (error) => (failure = error) });
    await flushSettled(scheduler);
    t.is(failure, undefined, name);
    // The pass and its retry both fail; the mind is rolled back to where the goal signal entered.
    t.deepEqual(errorsOf(events), [`critical: ${message}`, `critical: ${message}`], name);
    t.like(events.at(-1), { kind: 'session', state: 'stopped' }, name);
  }
});

test('a custom cycle without observe (or with it twice) takes each signal in once: the goal is perceived and added, with one warning the first time', (t) => {
  const without = runBounded({ config: { maxCycles: 3 }, cycle: (s) => pipe(s.orient, s.decide, s.act) });
  t.deepEqual(without.filter((e) => e.kind === 'perceived' || e.kind === 'goal').map((e) => e.kind), ['perceived', 'goal']);
  t.like(without.find((e) => e.kind === 'goal'), { goalId: 'goal-1', change: 'added', description: 'Find the moons of Jupiter' });
  t.is(
    warnings(without)[0],
    'the cycle operator did not take this goal signal in (it has no observe stage, or dropped the pass before it): it was taken in as the pass ended, and so will later ones be, without another warning',
  );
  const twice = runBounded({ config: { maxCycles: 3 }, cycle: (s) => pipe(s.observe, s.observe, s.orient, s.decide, s.act) });
  t.deepEqual(twice.filter((e) => e.kind === 'goal' && e.change === 'added').map((e) => e.kind === 'goal' && e.goalId), ['goal-1'], 'one goal, not two');
  t.deepEqual(warnings(twice), []);
});

test('a custom cycle with a stage twice runs it once per pass: one observation, orientation and decision, the skills review it once, and the tool runs once', (t) => {
  let runs = 0;
  let reviews = 0;
  const counted = builtinTools().map((tool): Tool => ({ ...tool, execute: (input, ctx) => (runs++, tool.execute(input, ctx)) }));
  const events = runBounded({
    mind: new Mind({ tools: counted }),
    config: { maxCycles: 3 },
    skills: [{ name: 'same', trigger: () => true, verify: (action) => (reviews++, { verdict: 'replace', input: action.input, reason: 'same input' }) }],
    cycle: (s) => pipe(s.observe, s.observe, s.orient, s.orient, s.decide, s.decide, pipe(s.verify, s.verify), s.act, s.act),
  });
  const count = (kind: string) => events.filter((e) => e.kind === kind).length;
  t.is(reviews, 3, 'one review per pass');
  // A replaced input is a second decision event (the new input and why), once per pass.
  t.deepEqual([count('observation'), count('orientation'), count('decision'), count('action')], [3, 3, 6, 3]);
  t.is(runs, 3, 'one tool run per cycle');
  t.deepEqual(events.filter((e) => e.kind === 'decision').map((e) => e.cycle), [1, 1, 2, 2, 3, 3], 'one cycle per pass');
  t.like(events.at(-1), { kind: 'session', state: 'stopped', reason: 'max cycles reached', cycles: 3 });
});
