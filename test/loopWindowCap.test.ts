import test from 'ava';
import { MAX_LOOP_WINDOW, resolveLoopConfig } from '../mind/loopConfig.js';
import { LoopDetector } from '../mind/loopDetector.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, goalStimulus, TestScheduler } from '../streams/testing.js';

test('windowSize above MAX_LOOP_WINDOW is a warning and takes the default', (t) => {
  t.is(resolveLoopConfig({ windowSize: MAX_LOOP_WINDOW }).config.windowSize, MAX_LOOP_WINDOW);
  const { config, warnings } = resolveLoopConfig({ windowSize: 1e9 });
  t.is(config.windowSize, 5);
  t.is(warnings.length, 1);
  t.regex(warnings[0]!.message, /^loopDetection\.windowSize = 1000000000 is invalid \(.*1000.*\); using the default 5$/);
});

test('a detector given a huge window allocates the default one and still detects', (t) => {
  const detector = new LoopDetector({ windowSize: 1e9 });
  t.is(detector.config.windowSize, 5);
  detector.push({ type: 'A' });
  t.like(detector.push({ type: 'A' }), { type: 'high_frequency_action', actionType: 'A' });
});

test('an agent configured with a huge loop window warns and runs on the default', (t) => {
  const events: AgentEvent[] = [];
  const scheduler = new TestScheduler(() => undefined);
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { config: { maxCycles: 5, loopDetection: { windowSize: 1e6 } } });
    agentEvents(agent, { inputs: [cold('a|', { a: goalStimulus('Map the moons of Mars') })] }).subscribe((e) => events.push(e));
  });
  const warnings = events.filter((e): e is AgentEvent<'warning'> => e.kind === 'warning');
  t.deepEqual(warnings.map((w) => w.key), ['loopDetection.windowSize']);
  t.true(events.some((e) => e.kind === 'action'), 'the agent acted');
});
