import test from 'ava';
import fc from 'fast-check';
import { from, map, toArray, firstValueFrom } from 'rxjs';
import { LoopDetector } from '../mind/loopDetector.js';
import { findLoop, type ActionRecord, type LoopInfo } from '../mind/loopDetection.js';
import type { LoopConfig } from '../mind/loopConfig.js';
import { resolveLoopConfig } from '../mind/loopConfig.js';
import { detectLoops } from '../operators/detectLoops.js';
import { runMarbles } from '../streams/testing.js';

const A: ActionRecord = { type: 'kg_query' };
const B: ActionRecord = { type: 'memory_recall' };
const T: ActionRecord = { type: 'reason', thinking: true };
const actions = { a: A, b: B, t: T };
const kinds = map((loop: LoopInfo) => `${loop.type}:${loop.actionType}`);

test('detectLoops: one loop raises one LoopInfo, then the cleared window needs new evidence', (t) => {
  runMarbles(
    (actual, expected) => t.deepEqual(actual, expected),
    ({ cold, expectObservable }) => {
      // a a a → consecutive; the window is cleared, so the 4th and 5th a are no loop; the 6th completes a new run.
      const actions$ = cold('a-a-a-a-a-a-b-|', actions);
      expectObservable(actions$.pipe(detectLoops({ windowSize: 6, cooldownActions: 0 }), kinds)).toBe('----x-----x---|', {
        x: 'consecutive_action:kg_query',
      });
      // With the seed's window of 5, two of two actions are already a high-frequency loop (2/2 > 0.7).
      expectObservable(actions$.pipe(detectLoops({ cooldownActions: 0 }), kinds)).toBe('--x---x---x---|', {
        x: 'high_frequency_action:kg_query',
      });
    },
  );
});

test('detectLoops: the cooldown keeps the next actions quiet but remembers them', (t) => {
  runMarbles(
    (actual, expected) => t.deepEqual(actual, expected),
    ({ cold, expectObservable }) => {
      const actions$ = cold('a-a-a-a-a-a-a-a-|', actions);
      expectObservable(actions$.pipe(detectLoops({ windowSize: 6, cooldownActions: 0 }), kinds)).toBe('----x-----x-----|', {
        x: 'consecutive_action:kg_query',
      });
      // cooldownActions 3: the 4th–6th actions report nothing; at the 7th the four remembered a's are a run again.
      expectObservable(actions$.pipe(detectLoops({ windowSize: 6, cooldownActions: 3 }), kinds)).toBe('----x-------x---|', {
        x: 'consecutive_action:kg_query',
      });
      // The default cooldown (5) is a whole new window: the 9th action would be the next report.
      expectObservable(actions$.pipe(detectLoops({ windowSize: 6 }), kinds)).toBe('----x-----------|', {
        x: 'consecutive_action:kg_query',
      });
    },
  );
});

test('detectLoops: alternating actions are a periodic sequence; thinking actions are skipped', (t) => {
  runMarbles(
    (actual, expected) => t.deepEqual(actual, expected),
    ({ cold, expectObservable }) => {
      const actions$ = cold('a-t-b-t-a-t-b-|', actions);
      expectObservable(actions$.pipe(detectLoops())).toBe('------------x-|', {
        x: {
          type: 'periodic_sequence',
          actionType: 'kg_query → memory_recall',
          count: 4,
          windowSize: 4,
          period: 2,
          details: 'the sequence kg_query → memory_recall repeated 2 times in full (period 2)',
        },
      });
    },
  );
});

test('detectLoops: each subscription has its own window', (t) => {
  runMarbles(
    (actual, expected) => t.deepEqual(actual, expected),
    ({ cold, expectObservable }) => {
      const detect = detectLoops({ windowSize: 6, cooldownActions: 0 });
      const first$ = cold('a-a-a|', actions).pipe(detect, kinds);
      const second$ = cold('a-b-a|', actions).pipe(detect, kinds);
      expectObservable(first$).toBe('----x|', { x: 'consecutive_action:kg_query' });
      expectObservable(second$).toBe('-----|');
    },
  );
});

// ——— the incremental detector agrees with findLoop ———

const arbAction: fc.Arbitrary<ActionRecord> = fc
  .record({
    type: fc.constantFrom('A', 'A', 'B', 'B', 'C', 'D'),
    // Deeply equal params in other key orders and nestings are the same action with paramAware.
    params: fc.constantFrom<unknown>(undefined, undefined, { p: 'x' }, { p: 'y' }, { p: 'x', q: [1, { r: null }] }, { q: [1, { r: null }], p: 'x' }, { p: 'x', q: [1, { r: 0 }] }, 'x', 1.5),
    thinking: fc.constantFrom(false, false, false, false, true),
    stateHash: fc.constantFrom('h', 'h', 'h', 'g', undefined),
  })
  .map(({ type, params, thinking, stateHash }) => {
    const action: ActionRecord = { type };
    if (params !== undefined) action.params = structuredClone(params);
    if (thinking) action.thinking = true;
    if (stateHash !== undefined) action.stateHash = stateHash;
    return action;
  });

const arbConfig: fc.Arbitrary<LoopConfig> = fc
  .record({
    windowSize: fc.integer({ min: 1, max: 9 }),
    maxConsecutiveActions: fc.integer({ min: 1, max: 6 }),
    frequencyThreshold: fc.oneof(fc.constantFrom(0.3, 0.5, 0.6, 2 / 3, 0.7, 0.75, 0.8, 1), fc.double({ min: 0.01, max: 1, noNaN: true })),
    ignoreThinkingActions: fc.boolean(),
    cooldownActions: fc.integer({ min: 0, max: 3 }),
    periodic: fc.boolean(),
    maxPeriod: fc.integer({ min: 2, max: 6 }),
    periodRepeats: fc.integer({ min: 2, max: 3 }),
    paramAware: fc.boolean(),
    stateAware: fc.boolean(),
    unchangedStateActions: fc.integer({ min: 2, max: 7 }),
  })
  .map((values) => {
    const { config, warnings } = resolveLoopConfig(values);
    if (warnings.length) throw new Error(warnings[0]!.message);
    return config;
  });

/** The model: findLoop over the actions since the last report, quiet during the cooldown. */
function reference(config: LoopConfig, actions: ActionRecord[]): (LoopInfo | null)[] {
  let since: ActionRecord[] = [];
  let quiet = 0;
  return actions.map((action) => {
    if (config.ignoreThinkingActions && action.thinking) return null;
    since.push(action);
    if (quiet > 0) {
      quiet--;
      return null;
    }
    const loop = findLoop(since, config);
    if (loop) {
      since = [];
      quiet = config.cooldownActions;
    }
    return loop;
  });
}

test('LoopDetector gives the same answers as findLoop over the actions since its last report', (t) => {
  let loops = 0;
  fc.assert(
    fc.property(arbConfig, fc.array(arbAction, { maxLength: 80 }), (config, history) => {
      const detector = new LoopDetector(config);
      const incremental = history.map((action) => detector.push(action));
      loops += incremental.filter(Boolean).length;
      t.deepEqual(incremental, reference(config, history));
    }),
    { numRuns: 1500, seed: 4 },
  );
  t.true(loops > 1000, `the random histories should contain many loops, found ${loops}`);
});

test('detectLoops emits exactly the non-null answers of the detector, in order', async (t) => {
  await fc.assert(
    fc.asyncProperty(arbConfig, fc.array(arbAction, { maxLength: 60 }), async (config, history) => {
      const emitted = await firstValueFrom(from(history).pipe(detectLoops(config), toArray()));
      t.deepEqual(emitted, reference(config, history).filter((l): l is LoopInfo => l !== null));
    }),
    { numRuns: 300, seed: 5 },
  );
});

test('LoopDetector with paramAware keeps a bounded table over a long history of distinct params', (t) => {
  const detector = new LoopDetector({ paramAware: true, stateAware: false });
  for (let i = 0; i < 20_000; i++) t.is(detector.push({ type: 'READ', params: { path: `file-${i}.txt` } }), null);
  t.is(detector.push({ type: 'READ', params: { path: 'same.txt' } }), null);
  t.is(detector.push({ type: 'READ', params: { path: 'same.txt' } }), null);
  t.like(detector.push({ type: 'READ', params: { path: 'same.txt' } }), {
    type: 'consecutive_action',
    details: 'READ {"path":"same.txt"} ran 3 times in a row (the newest 3 of 5 actions)',
  });
});

test('LoopDetector.fromJSON(config, detector.toJSON()) answers every later action as the saved detector does (a JSON round trip, as in a snapshot)', (t) => {
  fc.assert(
    fc.property(arbConfig, fc.array(arbAction, { maxLength: 80 }), fc.nat(80), (config, history, at) => {
      const split = Math.min(at, history.length);
      const saved = new LoopDetector(config);
      for (const action of history.slice(0, split)) saved.push(action);
      const restored = LoopDetector.fromJSON(config, JSON.parse(JSON.stringify(saved.toJSON())));
      t.truthy(restored);
      const rest = history.slice(split);
      t.deepEqual(
        rest.map((action) => restored!.push(action)),
        rest.map((action) => saved.push(action)),
      );
    }),
    { numRuns: 1500, seed: 6 },
  );
});
