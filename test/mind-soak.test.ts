import test from 'ava';
import { map, pipe, tap } from 'rxjs';
import { z } from 'zod';
import type { MindState } from '../mind/mind.js';
import { ToolFailure, type Tool } from '../mind/tool.js';
import type { Cycle } from '../streams/cycle.js';
import type { AgentEvent } from '../streams/events.js';
import { goalSignal, runOnVirtualTime } from './mindFixtures.js';

/**
 * No trace of the corrupting run: its triple, memory note and goal priority are
 * gone. The watchers (reflection, loop detection) may still react to the counted
 * attempt, so the rest of the state is not compared.
 */
const uncorrupted = (before: MindState, after: MindState): boolean =>
  JSON.stringify([after.graph, after.episodes]) === JSON.stringify([before.graph, before.episodes]) &&
  !JSON.stringify(after.memory).includes('"corrupt"') &&
  after.goals.every((goal) => goal.priority !== 1);

const SMALL_KB = [
  ['rex', 'is a', 'dog'], ['dog', 'is a', 'mammal'], ['mammal', 'has', 'fur'], ['cat', 'is a', 'mammal'], ['whale', 'is a', 'mammal'],
].map(([subject, predicate, object]) => ({ type: 'fact' as const, subject: subject!, predicate: predicate!, object: object!, confidence: 1, depth: 0, meta: {} }));

test('working memory never exceeds its capacity over 10,000 cycles', (t) => {
  let largest = 0;
  let passes = 0;
  const { mind } = runOnVirtualTime([...SMALL_KB, goalSignal('Find what unicorns eat', { stallThreshold: 1_000_000 })], {
    // Without auto-consolidation memory fills up, so every push past capacity must evict.
    config: { maxCycles: 10_000, workingMemoryCapacity: 20, autoConsolidate: false },
    watchers: [
      (runtime) =>
        tap(() => {
          passes++;
          largest = Math.max(largest, runtime.mind.memory.size);
        }),
    ],
  });
  t.is(mind.cycle, 10_000);
  t.true(passes >= 10_000);
  t.is(largest, 20, 'memory filled up to its capacity and never beyond');
});

test('soak: 10,000 cycles with a tool that throws on 10% of its calls — the loop survives, every failure is an event, every critical error restores the snapshot', (t) => {
  let calls = 0;
  const thrown = { transient: 0, critical: 0 };
  const flaky: Tool<{ n: number }> = {
    name: 'flaky_probe',
    description: 'Probes unicorns; fails now and then.',
    keywords: ['probe', 'unicorn', 'test', 'flaky', 'sensor', 'measure', 'check', 'sample', 'try', 'poke', 'scan', 'inspect', 'detect', 'signal', 'reading', 'instrument', 'gauge'],
    danger: 'safe',
    capabilities: ['test'],
    input: z.object({ n: z.number().int() }),
    scoring: { kind: 'core', base: () => 0.95 },
    propose: ({ goal }) => ({ n: goal.cyclesWorked }),
    execute(_input, { mind, now }) {
      calls++;
      if (calls % 10 !== 0) return { ok: true, summary: `probe ${calls}` };
      if ((calls / 10) % 2 === 0) {
        thrown.transient++;
        throw new ToolFailure('flaky_probe', `probe ${calls} lost contact`);
      }
      // A bug: the tool corrupts the mind, then crashes with a non-ToolFailure error.
      thrown.critical++;
      mind.graph.add('unicorn', 'eats', `corruption ${calls}`);
      mind.remember({ content: 'corrupt', symbols: [], kind: 'Inference', at: now(), relevance: 1 });
      mind.goals.update(mind.goals.all()[0]!, { priority: 1 });
      throw new TypeError(`probe ${calls} hit undefined`);
    },
  };
  const snapshots = new WeakMap<Cycle, MindState>();
  let compared = 0;
  let mismatches = 0;
  const { events, mind } = runOnVirtualTime([...SMALL_KB, goalSignal('Find what unicorns eat', { stallThreshold: 1_000_000 })], {
    tools: [flaky],
    config: { maxCycles: 10_000 },
    cycle: (stages, runtime) =>
      pipe(
        map((cycle: Cycle) => {
          snapshots.set(cycle, runtime.mind.toJSON());
          return cycle;
        }),
        stages.observe,
        stages.orient,
        stages.decide,
        stages.act,
        stages.consolidate,
      ),
    watchers: [
      (runtime) =>
        tap((cycle) => {
          if (cycle.failure?.severity !== 'critical') return;
          compared++;
          const before = snapshots.get(cycle)!;
          const after = runtime.mind.toJSON();
          // Rolled back to the snapshot, then the attempt counted as one more (failed) cycle.
          if (after.cycle !== before.cycle + 1 || !uncorrupted(before, after)) mismatches++;
        }),
    ],
  });
  const errors = events.filter((e): e is AgentEvent<'error'> => e.kind === 'error');
  t.is(mind.cycle, 10_000, 'the loop ran all its cycles');
  t.is(events.at(-1)!.kind, 'session');
  t.true(calls > 1000);
  t.true(thrown.critical > 50 && thrown.transient > 50);
  t.is(errors.filter((e) => e.severity === 'transient' && e.tool === 'flaky_probe').length, thrown.transient);
  t.is(errors.filter((e) => e.severity === 'critical' && e.rolledBack && /hit undefined/.test(e.message)).length, thrown.critical);
  t.is(errors.length, thrown.transient + thrown.critical, 'every failure is one event, and nothing else failed');
  t.is(compared, thrown.critical);
  t.is(mismatches, 0, 'after each critical error the corruption is gone and the attempt counted');
  t.is(mind.graph.query({ subject: 'unicorn', predicate: 'eats' }).length, 0, 'no corruption survived');
  t.is(mind.goals.get('goal-1')!.status, 'Active', 'single failures never failed the goal');
});
