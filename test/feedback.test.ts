import test from 'ava';
import { asyncScheduler, from, lastValueFrom, map, pipe, Subject, toArray, type OperatorFunction } from 'rxjs';
import { ToolFailure, type ToolOutput } from '../mind/tool.js';
import { act } from '../operators/act.js';
import { consolidate } from '../operators/consolidate.js';
import { decide } from '../operators/decide.js';
import { feedback } from '../operators/feedback.js';
import { observe } from '../operators/observe.js';
import { orient } from '../operators/orient.js';
import { stage } from '../operators/stage.js';
import type { Cycle } from '../streams/cycle.js';
import type { Runtime } from '../streams/runtime.js';
import type { Signal } from '../streams/signals.js';
import { scriptedTool, testRuntime } from './helpers/runtime.js';

const tick = (n: number): Signal => ({ type: 'tick', depth: 0, meta: { source: `t${n}` } });

/** What a pass shows: its signal, its depth and its events (errors with their message). */
const describe = (c: Cycle): string =>
  `${c.signal.meta.source}@${c.signal.depth}: ${c.events.map((e) => (e.kind === 'error' ? `error(${e.severity}: ${e.message})` : e.kind)).join(' ')}`;

/** A tool whose n-th call (from 0) does what the script says: answer, ask for feedback, throw, or do either later. */
function scripted(script: ('ok' | 'again' | 'throw' | 'later' | 'later-again' | 'reject')[]) {
  let call = 0;
  return scriptedTool('scripted', 0.9, (): ToolOutput | Promise<ToolOutput> => {
    const step = script[call++ % script.length]!;
    const output = (followUp: boolean): ToolOutput => ({ ok: true, summary: step, ...(followUp ? { followUp: 'more' } : {}) });
    switch (step) {
      case 'ok':
        return output(false);
      case 'again':
        return output(true);
      case 'throw':
        throw new ToolFailure('scripted', 'refused');
      case 'later':
        return new Promise((resolve) => setTimeout(() => resolve(output(false)), 2));
      case 'later-again':
        return new Promise((resolve) => setTimeout(() => resolve(output(true)), 2));
      case 'reject':
        return new Promise((_, reject) => setTimeout(() => reject(new ToolFailure('scripted', 'timed out')), 2));
    }
  });
}

async function passes(cycleOf: (rt: Runtime) => OperatorFunction<Cycle, Cycle>, script: Parameters<typeof scripted>[0], signals = 4): Promise<string[]> {
  const runtime = testRuntime(asyncScheduler, { maxCycles: 100, stallThreshold: 100 }, [scripted(script)]);
  runtime.mind.addGoal({ description: 'Keep going', criteria: 'never satisfied zzqx' });
  const out = await lastValueFrom(from(Array.from({ length: signals }, (_, i) => tick(i))).pipe(feedback(runtime, cycleOf(runtime)), toArray()));
  return out.map(describe);
}

const stages = (rt: Runtime) => pipe(observe(rt), orient(rt), decide(rt), act(rt), consolidate(rt));
// The same cycle split by a plain operator: it is then subscribed to for each pass instead of having its steps called.
const split = (rt: Runtime) => pipe(observe(rt), orient(rt), decide(rt), map((c: Cycle) => c), act(rt), consolidate(rt));

test('a cycle of stages only (steps called directly) and the same cycle split by an operator (subscribed to) give the same passes', async (t) => {
  const script = ['ok', 'again', 'throw', 'later', 'later-again', 'ok', 'reject', 'throw', 'again', 'later'] as const;
  const direct = await passes(stages, [...script], 8);
  t.deepEqual(direct, await passes(split, [...script], 8));
  t.true(direct.some((p) => p.includes('error(transient: scripted: timed out)')), 'a rejected promise is a transient error');
  t.true(direct.some((p) => p.includes('error(transient: scripted: refused)')), 'a throw is a transient error');
});

test('a follow-up from an asynchronous pass runs before the next signal, and every chain keeps its order', async (t) => {
  const out = await passes(stages, ['later-again', 'later', 'ok'], 3);
  t.deepEqual(
    out.map((p) => p.split(':')[0]),
    ['t0@0', 't0@1', 't1@0', 't2@0', 't2@1'],
  );
});

test('a pass abandoned while a step waits: the steps after it never run', async (t) => {
  const runtime = testRuntime(asyncScheduler);
  let release!: () => void;
  let after = 0;
  const waiting = stage((c) => new Promise<Cycle>((resolve) => (release = () => resolve(c))));
  const signals = new Subject<Signal>();
  const subscription = signals.pipe(feedback(runtime, pipe(waiting, stage((c) => (after++, c))))).subscribe();
  signals.next(tick(0));
  subscription.unsubscribe();
  release();
  await new Promise((resolve) => setTimeout(resolve, 5));
  t.is(after, 0);
});

test('a pass abandoned while its tool runs asks for no feedback afterwards: no follow-up pass starts', async (t) => {
  const runtime = testRuntime(asyncScheduler, { maxCycles: 100, stallThreshold: 100 }, [scripted(['later-again'])]);
  runtime.mind.addGoal({ description: 'Keep going', criteria: 'never satisfied zzqx' });
  let started = 0;
  const counted = stage((c) => (started++, c));
  const signals = new Subject<Signal>();
  const subscription = signals.pipe(feedback(runtime, pipe(counted, stages(runtime)))).subscribe();
  signals.next(tick(0));
  subscription.unsubscribe();
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(started, 1);
  t.is(runtime.mind.cycle, 1);
});
