/**
 * The cycle operators' numeric options are checked as the operator is made:
 * a bad one throws naming the operator and the option. Unchecked, NaN compared
 * false with every depth: feedback's chain never ended (a tool that always asks
 * for feedback ran on past depth 39), verify never kept a rejected tool
 * away, recover never retried.
 */
import test from 'ava';
import { asyncScheduler, identity } from 'rxjs';
import { feedback } from '../operators/feedback.js';
import { recover } from '../operators/recover.js';
import { verify } from '../operators/verify.js';
import { SkillRegistry } from '../mind/skills.js';
import { testRuntime } from './helpers/runtime.js';

const runtime = () => testRuntime(asyncScheduler);

for (const bad of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
  test(`feedback, recover and verify refuse ${bad} for maxDepth, retryDepth and avoidCycles, naming the option`, (t) => {
    t.throws(() => feedback(runtime(), identity, { maxDepth: bad }), { instanceOf: RangeError, message: `feedback maxDepth: expected a whole number ≥ 0, got ${bad}` });
    t.throws(() => recover(runtime(), identity, { retryDepth: bad }), { instanceOf: RangeError, message: `recover retryDepth: expected a whole number ≥ 0, got ${bad}` });
    t.throws(() => verify(runtime(), new SkillRegistry(), { avoidCycles: bad }), { instanceOf: RangeError, message: `verify avoidCycles: expected a whole number ≥ 0, got ${bad}` });
  });
}

test('a value of the wrong kind is a TypeError naming it; whole numbers ≥ 0 and left-out options are taken', (t) => {
  t.throws(() => feedback(runtime(), identity, { maxDepth: '3' as unknown as number }), { instanceOf: TypeError, message: 'feedback maxDepth: expected a whole number ≥ 0, got "3"' });
  for (const ok of [undefined, 0, 4]) {
    t.notThrows(() => feedback(runtime(), identity, { maxDepth: ok }));
    t.notThrows(() => recover(runtime(), identity, { retryDepth: ok }));
    t.notThrows(() => verify(runtime(), new SkillRegistry(), { avoidCycles: ok }));
  }
});
