import test from 'ava';
import { VirtualTimeScheduler } from 'rxjs';
import { CycleDriver, type DriverOptions } from '../streams/driver.js';
import { testRuntime } from './helpers/runtime.js';

/** A driver for a mind with one active goal; its ticks counted, and at most `steps` scheduler actions run. */
function drive(options: DriverOptions, steps = 1_000): { ticks: number; stepsRun: number } {
  const scheduler = new VirtualTimeScheduler();
  const runtime = testRuntime(scheduler, { maxCycles: 5 });
  runtime.mind.addGoal({ description: 'Find moons of Mars', criteria: 'moons of Mars', priority: 128 });
  let ticks = 0;
  const driver = new CycleDriver(runtime, () => ticks++, options);
  driver.wake();
  let stepsRun = 0;
  for (let action = scheduler.actions.shift(); action && stepsRun < steps; action = scheduler.actions.shift(), stepsRun++) {
    scheduler.frame = action.delay;
    action.execute(action.state, action.delay);
  }
  return { ticks, stepsRun };
}

test('CycleDriver ticks with good options: one tick, then it waits for the pass to settle', (t) => {
  t.deepEqual(drive({ paceMs: 0 }), { ticks: 1, stepsRun: 1 });
  t.deepEqual(drive({ paceMs: 10, burst: 1, sliceMs: 1, held: () => false }), { ticks: 1, stepsRun: 1 });
});

test('CycleDriver refuses a burst or slice that would let no tick into a burst (it rescheduled empty bursts for ever), and a bad pace or hold, naming each', (t) => {
  const refused: [Partial<DriverOptions>, string, typeof RangeError | typeof TypeError][] = [
    [{ burst: 0 }, 'CycleDriver burst: expected a whole number of cycles ≥ 1, got 0', RangeError],
    [{ burst: NaN }, 'CycleDriver burst: expected a whole number of cycles ≥ 1, got NaN', RangeError],
    [{ sliceMs: 0 }, 'CycleDriver sliceMs: expected a number of ms > 0, got 0', RangeError],
    [{ sliceMs: NaN }, 'CycleDriver sliceMs: expected a number of ms > 0, got NaN', RangeError],
    [{ paceMs: -5 }, 'CycleDriver paceMs: expected a whole number of ms from 0 to 2147483647, got -5', RangeError],
    [{ paceMs: '10' as never }, 'CycleDriver paceMs: expected a whole number of ms from 0 to 2147483647, got "10"', TypeError],
    [{ held: true as never }, 'CycleDriver held: expected a function, got true', TypeError],
  ];
  for (const [options, message, instanceOf] of refused) {
    t.throws(() => drive({ paceMs: 0, ...options }, 100), { instanceOf, message });
  }
});

test('CycleDriver yields to I/O after 1 ms of scheduler time by default: a burst of cycles taking 0.3 ms each runs four of them', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const runtime = testRuntime(scheduler, { maxCycles: 1_000 });
  runtime.mind.addGoal({ description: 'Find moons of Mars', criteria: 'moons of Mars', priority: 128 });
  const bursts: number[] = [];
  let ticks = 0;
  // Each tick's pass takes 0.3 ms of scheduler time and settles at once.
  const driver: CycleDriver = new CycleDriver(
    runtime,
    () => {
      ticks++;
      scheduler.frame += 0.3;
      runtime.mind.nextCycle();
      driver.settled();
    },
    { paceMs: 0 },
  );
  driver.wake();
  for (let action = scheduler.actions.shift(); action && bursts.length < 3; action = scheduler.actions.shift()) {
    const before = ticks;
    action.execute(action.state, action.delay);
    bursts.push(ticks - before);
  }
  t.deepEqual(bursts, [4, 4, 4]);
});
