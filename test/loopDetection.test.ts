import test from 'ava';
import { findLoop, type ActionRecord, type LoopInfo } from '../mind/loopDetection.js';
import { defaultLoopConfig, resolveLoopConfig, type LoopConfigInput } from '../mind/loopConfig.js';

/**
 * Actions in a compact notation, oldest first: `A` a type, `~R` a thinking
 * action, `READ(a)` with params `{ path: 'a' }`, `A@h1` with stateHash `h1`.
 */
function actions(text: string): ActionRecord[] {
  if (!text.trim()) return [];
  return text.trim().split(/\s+/).map((token) => {
    const m = /^(~)?([A-Za-z_]+)(?:\(([^)]*)\))?(?:@(\w+))?$/.exec(token);
    if (!m) throw new Error(`bad action token ${token}`);
    const action: ActionRecord = { type: m[2]! };
    if (m[1]) action.thinking = true;
    if (m[3] !== undefined) action.params = { path: m[3] };
    if (m[4]) action.stateHash = m[4];
    return action;
  });
}

type Expect = null | (Partial<LoopInfo> & Pick<LoopInfo, 'type' | 'actionType'>);
const rows: [name: string, history: string, config: LoopConfigInput, expected: Expect][] = [
  // edges
  ['empty history', '', {}, null],
  ['one action is below every minimum', 'A', {}, null],
  ['two different actions', 'A B', {}, null],
  // consecutive_action
  ['three in a row', 'A A A', {}, { type: 'consecutive_action', actionType: 'A', count: 3, windowSize: 3 }],
  ['three in a row after others', 'B C A A A', {}, { type: 'consecutive_action', actionType: 'A', count: 3, windowSize: 5 }],
  ['a longer run still reports maxConsecutiveActions', 'A A A A A A A', {}, { type: 'consecutive_action', count: 3, windowSize: 5, actionType: 'A' }],
  ['the run must be the newest', 'A A A B C', {}, null],
  ['maxConsecutiveActions larger than the window never fires', 'A A A A A A', { windowSize: 3, maxConsecutiveActions: 5, frequencyThreshold: 1 }, null],
  ['maxConsecutiveActions 2', 'B A A', { maxConsecutiveActions: 2 }, { type: 'consecutive_action', actionType: 'A', count: 2, windowSize: 3 }],
  // high_frequency_action
  ['two of two is high frequency (window minimum 2, count minimum 2)', 'A A', {}, { type: 'high_frequency_action', actionType: 'A', count: 2, windowSize: 2, frequency: 1 }],
  ['four of five', 'A A B A A', {}, { type: 'high_frequency_action', actionType: 'A', count: 4, windowSize: 5, frequency: 0.8 }],
  ['only the window counts', 'A A A A B A C A D', {}, null],
  ['three of five is below 0.7', 'A B A C A', {}, null],
  // seed 003: the share must exceed the threshold; one equal to it is no loop
  ['exactly 3 of 5 does not exceed a threshold of 0.6', 'A B A C A', { frequencyThreshold: 0.6 }, null],
  ['exactly 4 of 5 does not exceed a threshold of 0.8', 'A A B A A', { frequencyThreshold: 0.8 }, null],
  ['3 of 5 exceeds 0.59', 'A B A C A', { frequencyThreshold: 0.59 }, { type: 'high_frequency_action', actionType: 'A', count: 3, frequency: 0.6 }],
  ['2/3 does not exceed a threshold of exactly 2/3', 'A B A', { frequencyThreshold: 2 / 3 }, null],
  ['2/3 exceeds 0.66 though both round to 0.67; frequency rounded to 0.67', 'A B A', { frequencyThreshold: 0.66 }, { type: 'high_frequency_action', actionType: 'A', count: 2, windowSize: 3, frequency: 0.67 }],
  ['2/3 misses 0.67: the comparison is unrounded', 'A B A', { frequencyThreshold: 0.67 }, null],
  ['threshold 1 is never exceeded, not even by the whole window', 'A A A A A', { frequencyThreshold: 1, maxConsecutiveActions: 6, periodic: false, stateAware: false }, null],
  ['threshold 1 needs the whole window', 'A A B A A', { frequencyThreshold: 1 }, null],
  ['count minimum max(2, maxConsecutiveActions − 1) blocks 3 of 5 when it is 4', 'B A C A A', { maxConsecutiveActions: 5, frequencyThreshold: 0.5 }, null],
  ['count minimum 3 is met by 3 of 5', 'B A C A A', { maxConsecutiveActions: 4, frequencyThreshold: 0.5 }, { type: 'high_frequency_action', actionType: 'A', count: 3, frequency: 0.6 }],
  ['window minimum floor(10 × 0.5) = 5 blocks 3 of 4', 'A B A A', { windowSize: 10 }, null],
  ['window minimum 5 met', 'A A B A A', { windowSize: 10 }, { type: 'high_frequency_action', actionType: 'A', count: 4, windowSize: 5, frequency: 0.8 }],
  ['a tie goes to the type seen most recently', 'A B B A', { windowSize: 4, frequencyThreshold: 0.4 }, { type: 'high_frequency_action', actionType: 'A', count: 2, frequency: 0.5 }],
  ['a tie goes to the type seen most recently (other order)', 'B A A B', { windowSize: 4, frequencyThreshold: 0.4 }, { type: 'high_frequency_action', actionType: 'B', count: 2, frequency: 0.5 }],
  // thinking actions
  ['thinking actions are dropped by default', 'A ~R A ~R A', {}, { type: 'consecutive_action', actionType: 'A', count: 3, windowSize: 3 }],
  ['thinking actions count when not ignored', 'A ~R A ~R A', { ignoreThinkingActions: false }, { type: 'periodic_sequence', actionType: 'R → A', period: 2, count: 4, windowSize: 4 }],
  ['only thinking actions', '~R ~R ~R', {}, null],
  // periodic_sequence
  ['A-B-A-B', 'A B A B', {}, { type: 'periodic_sequence', actionType: 'A → B', period: 2, count: 4, windowSize: 4 }],
  ['A-B-C-A-B-C', 'A B C A B C', {}, { type: 'periodic_sequence', actionType: 'A → B → C', period: 3, count: 6 }],
  ['A-B-C-D twice', 'X A B C D A B C D', {}, { type: 'periodic_sequence', actionType: 'A → B → C → D', period: 4, count: 8, windowSize: 8 }],
  ['a block with a repeat inside: A-A-B twice', 'A A B A A B', {}, { type: 'periodic_sequence', actionType: 'A → A → B', period: 3 }],
  ['one and a half repeats is not enough', 'B A B C A B', {}, null],
  ['period 5 is beyond maxPeriod 4', 'A B C D E A B C D E', {}, null],
  ['period 5 with maxPeriod 5', 'A B C D E A B C D E', { maxPeriod: 5 }, { type: 'periodic_sequence', period: 5, actionType: 'A → B → C → D → E', count: 10 }],
  ['periodRepeats 3 needs three full repeats', 'A B A B', { periodRepeats: 3 }, null],
  ['periodRepeats 3 met', 'A B A B A B', { periodRepeats: 3 }, { type: 'periodic_sequence', actionType: 'A → B', period: 2, count: 6 }],
  ['periodic off', 'A B A B', { periodic: false }, null],
  ['a single repeated type is not periodic', 'A A A A A A A A', { maxConsecutiveActions: 10 }, null],
  // paramAware
  ['same type, other params: a repeat by type', 'READ(a) READ(b) READ(c)', {}, { type: 'consecutive_action', actionType: 'READ', count: 3 }],
  ['same type, other params: not a repeat with paramAware', 'READ(a) READ(b) READ(c)', { paramAware: true }, null],
  ['same type and params with paramAware', 'READ(a) READ(a) READ(a)', { paramAware: true }, { type: 'consecutive_action', actionType: 'READ', count: 3, details: 'READ {"path":"a"} ran 3 times in a row (the newest 3 of 3 actions)' }],
  ['alternating params is periodic with paramAware', 'READ(a) READ(b) READ(a) READ(b)', { paramAware: true }, { type: 'periodic_sequence', actionType: 'READ → READ', period: 2 }],
  ['an action without params differs from one with params', 'READ READ(a) READ', { paramAware: true }, null],
  // no_state_change
  ['eight actions with one state', 'A@h B@h C@h D@h E@h F@h G@h H@h', {}, { type: 'no_state_change', actionType: 'H', count: 8, windowSize: 8 }],
  ['seven are not enough', 'A@h B@h C@h D@h E@h F@h G@h', {}, null],
  ['a state change breaks the run', 'A@h B@h C@h D@g E@h F@h G@h H@h', {}, null],
  ['the run only needs the newest k', 'A@g B@h C@h D@h E@h F@h G@h H@h I@h', {}, { type: 'no_state_change', actionType: 'I', count: 8 }],
  ['an action without a hash breaks the run', 'A@h B@h C@h D E@h F@h G@h H@h', { unchangedStateActions: 4 }, { type: 'no_state_change', actionType: 'H', count: 4 }],
  ['k = 2', 'A@h B@h', { unchangedStateActions: 2 }, { type: 'no_state_change', actionType: 'B', count: 2, windowSize: 2 }],
  ['stateAware off', 'A@h B@h C@h D@h E@h F@h G@h H@h', { stateAware: false }, null],
  // order of the rules
  ['consecutive wins over high frequency', 'A A A A A', {}, { type: 'consecutive_action', actionType: 'A' }],
  ['high frequency wins over periodic', 'A B A B', { frequencyThreshold: 0.4 }, { type: 'high_frequency_action', actionType: 'B' }],
  ['periodic wins over no state change', 'A@h B@h A@h B@h', { unchangedStateActions: 4 }, { type: 'periodic_sequence', actionType: 'A → B' }],
  // invalid config: each bad value takes its default
  ['an invalid threshold takes the default 0.7', 'A A B A A', { frequencyThreshold: 1.5 }, { type: 'high_frequency_action', actionType: 'A', frequency: 0.8 }],
  ['an invalid windowSize takes the default 5', 'A A A A B C D', { windowSize: -2, maxConsecutiveActions: 10 } as LoopConfigInput, null],
];

for (const [name, history, config, expected] of rows) {
  test(`findLoop: ${name}`, (t) => {
    const loop = findLoop(actions(history), config);
    if (expected === null) return t.is(loop, null, loop?.details);
    t.truthy(loop, 'expected a loop');
    t.like(loop, expected);
    t.is(typeof loop!.details, 'string');
  });
}

test('findLoop: the frequency is reported rounded to two places, the details name the threshold', (t) => {
  const loop = findLoop(actions('A B A B A B A'), { windowSize: 7, maxConsecutiveActions: 4, frequencyThreshold: 0.5, periodic: false });
  t.deepEqual(loop, {
    type: 'high_frequency_action',
    actionType: 'A',
    count: 4,
    windowSize: 7,
    frequency: 0.57,
    details: 'A made up 4 of the last 7 actions (0.57 > threshold 0.5)',
  });
});

test('findLoop: every loop type has its fields and a sentence', (t) => {
  t.deepEqual(findLoop(actions('A B C A B C')), {
    type: 'periodic_sequence',
    actionType: 'A → B → C',
    count: 6,
    windowSize: 6,
    period: 3,
    details: 'the sequence A → B → C repeated 2 times in full (period 3)',
  });
  t.deepEqual(findLoop(actions('A@h B@h'), { unchangedStateActions: 2 }), {
    type: 'no_state_change',
    actionType: 'B',
    count: 2,
    windowSize: 2,
    details: '2 actions in a row, the newest B, left the state unchanged (state h)',
  });
});

const invalid: [key: string, value: unknown, reason: RegExp][] = [
  ['windowSize', 0, /loopDetection\.windowSize = 0 is invalid .*; using the default 5/],
  ['windowSize', 2.5, /using the default 5/],
  ['maxConsecutiveActions', -1, /using the default 3/],
  ['frequencyThreshold', 0, /frequencyThreshold = 0 is invalid .*; using the default 0\.7/],
  ['frequencyThreshold', 1.01, /using the default 0\.7/],
  ['frequencyThreshold', '0.8', /using the default 0\.7/],
  ['ignoreThinkingActions', 'yes', /ignoreThinkingActions = "yes" is invalid .*; using the default true/],
  ['maxPeriod', 1, /using the default 4/],
  ['periodRepeats', 1, /using the default 2/],
  ['unchangedStateActions', 1, /using the default 8/],
  ['cooldownActions', -1, /using the default 5/],
  ['interventionPriority', 300, /using the default 255/],
];
for (const [key, value, reason] of invalid) {
  test(`resolveLoopConfig: ${key} = ${JSON.stringify(value)} falls back to its default with a warning`, (t) => {
    const { config, warnings } = resolveLoopConfig({ [key]: value, windowSize: key === 'windowSize' ? value : 7 });
    t.is(config[key as keyof typeof config], defaultLoopConfig()[key as keyof typeof config]);
    t.is(warnings.length, 1);
    t.is(warnings[0]!.key, key);
    t.regex(warnings[0]!.message, reason);
    if (key !== 'windowSize') t.is(config.windowSize, 7, 'the valid keys are kept');
  });
}

test('resolveLoopConfig: valid values are taken, missing ones default, silently', (t) => {
  const { config, warnings } = resolveLoopConfig({ windowSize: 8, frequencyThreshold: 1, paramAware: true });
  t.deepEqual(warnings, []);
  t.deepEqual(config, { ...defaultLoopConfig(), windowSize: 8, frequencyThreshold: 1, paramAware: true });
});

test('resolveLoopConfig: an unknown key and a non-object section are warnings, not errors', (t) => {
  t.deepEqual(resolveLoopConfig({ windowsize: 8 }).warnings, [{ key: 'windowsize', message: 'loopDetection.windowsize is not a setting; ignored (settings are spelt in camelCase: windowSize)' }]);
  t.deepEqual(resolveLoopConfig({ window_size: 8, max_consecutive_actions: 2 }).warnings.map((w) => w.message), [
    'loopDetection.window_size is not a setting; ignored (settings are spelt in camelCase: windowSize)',
    'loopDetection.max_consecutive_actions is not a setting; ignored (settings are spelt in camelCase: maxConsecutiveActions)',
  ], 'seed 003 spells them in snake_case');
  t.deepEqual(resolveLoopConfig({ frobnicate: 1 }).warnings.map((w) => w.message), ['loopDetection.frobnicate is not a setting; ignored']);
  const { config, warnings } = resolveLoopConfig(5);
  t.deepEqual(config, defaultLoopConfig());
  t.regex(warnings[0]!.message, /must be an object, got 5; using the defaults/);
});

test('the seed defaults', (t) => {
  t.like(defaultLoopConfig(), { windowSize: 5, maxConsecutiveActions: 3, frequencyThreshold: 0.7, ignoreThinkingActions: true });
});

test('findLoop with paramAware: params are compared as data, in any key order', (t) => {
  const read = (params: unknown): ActionRecord => ({ type: 'READ', params });
  const history = [read({ path: 'a', opts: { lines: [1, 2] } }), read({ opts: { lines: [1, 2] }, path: 'a' }), read({ path: 'a', opts: { lines: [1, 2] } })];
  t.like(findLoop(history, { paramAware: true }), { type: 'consecutive_action', actionType: 'READ', count: 3 });
  const differing = [read({ path: 'a', opts: { lines: [1, 2] } }), read({ path: 'a', opts: { lines: [1, 3] } }), read({ path: 'a', opts: { lines: [1, 2] } })];
  t.is(findLoop(differing, { paramAware: true }), null);
});
