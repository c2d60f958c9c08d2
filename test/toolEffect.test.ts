import test from 'ava';
import { VirtualTimeScheduler } from 'rxjs';
import { Mind } from '../mind/mind.js';
import { ToolFailure, type ToolContext } from '../mind/tool.js';
import { runEffect } from '../operators/toolEffect.js';
import { toolRunScope } from '../operators/toolRunScope.js';
import { AgentConfig } from '../streams/config.js';
import type { EffectLog, RecordedEffect } from '../streams/effects.js';
import { createRuntime } from '../streams/runtime.js';

/** A runtime on virtual time (starting at 1000) whose effects go to `recorded` (live) or come from `recording` (replaying), and a run of it at the mind's cycle as each effect is asked for. */
function setUp({ replaying = false, recording = [] as RecordedEffect[] } = {}) {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = 1000;
  const recorded: RecordedEffect[] = [];
  const effects: EffectLog = replaying
    ? { recorded: async ({ cycle, n }) => recording.find((e) => e.cycle === cycle && e.n === n) }
    : { record: (effect) => void recorded.push(effect) };
  const runtime = createRuntime({ mind: new Mind(), config: AgentConfig.parse({}), scheduler, replaying, effects });
  const run = toolRunScope(scheduler);
  const effect = <T>(name: unknown, work: unknown, options?: unknown) => runEffect<T>({ runtime, scope: run, tool: 'a_tool', cycle: runtime.mind.cycle }, name, work, options);
  return { scheduler, runtime, recorded, run, effect };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('live, an effect resolves with its value as JSON carries it, recorded with its key and the scheduler time it settled', async (t) => {
  const { scheduler, recorded, effect, runtime } = setUp();
  const when = new Date(0);
  const pending = effect('read a', () => new Promise((resolve) => setImmediate(() => ((scheduler.frame = 1500), resolve({ when, n: 1 })))));
  t.deepEqual(await pending, { when: '1970-01-01T00:00:00.000Z', n: 1 });
  t.deepEqual(recorded, [{ cycle: 0, n: 0, at: 1500, tool: 'a_tool', name: 'read a', outcome: 'ok', value: { when: '1970-01-01T00:00:00.000Z', n: 1 } }]);
  t.is(await effect('write b', () => undefined), undefined);
  t.false('value' in recorded[1]!, 'undefined is recorded as no value');
  t.like(recorded[1], { cycle: 0, n: 1, outcome: 'ok' });
  runtime.mind.nextCycle();
  await effect('read c', () => 'x');
  t.like(recorded[2], { cycle: 1, n: 0 });
});

test('an effect is typed as the JSON copy the tool gets: a Date is a string, a method is gone (checked by tsc)', async (t) => {
  const { effect } = setUp();
  const typed = effect as ToolContext['effect'];
  const stat = await typed('stat notes.txt', () => ({ size: 3, mtime: new Date(0), isFile: () => true }));
  const mtime: string = stat.mtime;
  t.is(mtime, '1970-01-01T00:00:00.000Z');
  t.is(stat.size, 3);
  // @ts-expect-error a method does not survive the copy
  t.is(stat.isFile, undefined);
});

test('a cycle number run again after a rollback keeps counting its effects, so no two share a key', async (t) => {
  const { recorded, effect, runtime } = setUp();
  runtime.mind.checkpoint();
  runtime.mind.nextCycle();
  await effect('read a', () => 1);
  runtime.mind.rollback();
  runtime.mind.nextCycle();
  await effect('read a', () => 2);
  t.deepEqual(
    recorded.map(({ cycle, n }) => [cycle, n]),
    [
      [1, 0],
      [1, 1],
    ],
  );
});

test('an effect that fails rejects with its error rebuilt from what is recorded: the same kind, name, message and code', async (t) => {
  const { recorded, effect } = setUp();
  const enoent = Object.assign(new Error('ENOENT: no such file or directory, open notes.txt'), { code: 'ENOENT', errno: -2 });
  const error = await t.throwsAsync(effect('read notes.txt', async () => Promise.reject(enoent)));
  t.not(error, enoent);
  t.like(error, { name: 'Error', message: enoent.message, code: 'ENOENT' });
  t.false('errno' in error!, 'only the name, message and code are kept');
  t.like(recorded[0], { outcome: 'error', value: { name: 'Error', message: enoent.message, code: 'ENOENT' } });
  await t.throwsAsync(effect('bug', () => (undefined as unknown as string).length), { instanceOf: TypeError });
  const failure = await t.throwsAsync(effect('refused', () => Promise.reject(new ToolFailure('file_io', 'refused "/etc": absolute paths are not allowed'))), { instanceOf: ToolFailure });
  t.is((failure as ToolFailure).tool, 'file_io');
  t.is(failure!.message, 'file_io: refused "/etc": absolute paths are not allowed');
  // ava's throwsAsync takes no DOMException for an error: caught by hand.
  const timedOut: unknown = await effect('GET x', () => Promise.reject(new DOMException('timed out after 5 ms', 'TimeoutError'))).catch((error: unknown) => error);
  t.true(timedOut instanceof DOMException);
  t.like(timedOut, { name: 'TimeoutError', message: 'timed out after 5 ms' });
  t.like(recorded.at(-1), { value: { name: 'TimeoutError', message: 'timed out after 5 ms' } });
  t.like(await t.throwsAsync(effect('odd', () => Promise.reject('just text'))), { name: 'Error', message: 'just text' });
});

test('a value JSON cannot hold fails the effect with a TypeError naming it, recorded as its error', async (t) => {
  const { recorded, effect } = setUp();
  const error = await t.throwsAsync(effect('count', () => ({ big: 1n })), { instanceOf: TypeError });
  t.is(error!.message, 'effect "count" of a_tool resolved to a value JSON cannot hold: it holds a BigInt');
  t.like(recorded[0], { outcome: 'error', value: { name: 'TypeError' } });
});

test('an effect pending when the run is given up on rejects with the reason at once, recorded as abandoned; its late value is dropped', async (t) => {
  const { recorded, effect, run } = setUp();
  let finish!: (value: string) => void;
  const pending = effect('run sleep', () => new Promise<string>((resolve) => (finish = resolve)));
  const reason = new ToolFailure('a_tool', 'timed out after 10 ms');
  run.abort(reason);
  t.is(await t.throwsAsync(pending), reason);
  finish('late');
  await turn();
  t.deepEqual(
    recorded.map((e) => e.outcome),
    ['abandoned'],
  );
  await t.throwsAsync(effect('run again', () => 'never run'), { is: reason }, 'an effect asked for after that fails at once');
});

test('replaying, the recorded outcomes settle at the clock\'s next step, in the order they settled when recorded (their id), and the work does not run', async (t) => {
  const recording: RecordedEffect[] = [
    { id: 8, cycle: 0, n: 0, at: 1200, tool: 'a_tool', name: 'read a', outcome: 'ok', value: { text: 'recorded' } },
    { id: 7, cycle: 0, n: 1, at: 1200, tool: 'a_tool', name: 'read b', outcome: 'error', value: { name: 'Error', message: 'ENOENT: gone', code: 'ENOENT' } },
  ];
  const { scheduler, effect } = setUp({ replaying: true, recording });
  let ran = 0;
  const arrived: string[] = [];
  const a = effect('read a', () => ran++).then((value) => arrived.push(`a ${JSON.stringify(value)}`));
  const b = effect('read b', () => ran++).catch((error: Error & { code?: string }) => arrived.push(`b ${error.message} ${error.code}`));
  await turn();
  t.deepEqual(arrived, [], 'not before the clock steps');
  scheduler.maxFrames = 1000;
  while (arrived.length < 2 && scheduler.actions.length > 0) {
    scheduler.flush();
    await turn();
  }
  await Promise.all([a, b]);
  t.deepEqual(arrived, ['b ENOENT: gone ENOENT', 'a {"text":"recorded"}'], 'b settled first when recorded, at the time the step is (1000), not the recorded 1200');
  t.is(ran, 0);
});

test('replaying, a recorded outcome settles before a deadline of the run that comes earlier than its recorded time: the run was not given up on before it came', async (t) => {
  const recording: RecordedEffect[] = [{ id: 1, cycle: 0, n: 0, at: 1500, tool: 'a_tool', name: 'GET x', outcome: 'ok', value: 'the page' }];
  const { scheduler, effect, run } = setUp({ replaying: true, recording });
  scheduler.schedule(() => run.abort(new ToolFailure('a_tool', 'timed out after 100 ms')), 100);
  const got = effect('GET x', () => 'not fetched');
  await turn();
  scheduler.flush();
  t.is(await got, 'the page');
});

test('an effect asked for once its run was given up on, or had ended, is refused at once and takes no key: the next effect of the cycle keeps its number', async (t) => {
  const { recorded, effect, run, runtime } = setUp();
  const reason = new ToolFailure('a_tool', 'timed out after 10 ms');
  run.abort(reason);
  await t.throwsAsync(effect('read late', () => 'never'), { is: reason });
  const ended = toolRunScope(runtime.scheduler);
  ended.end();
  const late = runEffect({ runtime, scope: ended, tool: 'a_tool', cycle: 0 }, 'read later', () => 'never', undefined);
  t.is((await t.throwsAsync(late, { instanceOf: ToolFailure }))!.message, 'a_tool: effect "read later" was asked for after the tool\'s run ended: await an effect before the run returns');
  await runEffect({ runtime, scope: toolRunScope(runtime.scheduler), tool: 'a_tool', cycle: 0 }, 'read now', () => 'x', undefined);
  t.deepEqual(
    recorded.map(({ name, n }) => [name, n]),
    [['read now', 0]],
  );
});

test('a value that throws as it is copied (a getter, a Proxy) fails the effect with that error, recorded as its error', async (t) => {
  const { recorded, effect } = setUp();
  const error = await t.throwsAsync(effect('read odd', () => ({ get boom(): string { throw new Error('boom getter'); } })));
  t.is(error!.message, 'boom getter');
  t.like(recorded[0], { outcome: 'error', value: { name: 'Error', message: 'boom getter' } });
});

test('replaying with nothing recorded for an effect (or another effect recorded in its place), a repeatable one runs again and any other fails as not done again', async (t) => {
  const recording: RecordedEffect[] = [{ cycle: 0, n: 1, at: 1000, tool: 'a_tool', name: 'write other.txt', outcome: 'ok' }];
  const { effect } = setUp({ replaying: true, recording });
  t.is(await effect('read notes.txt', () => 'read again', { repeatable: true }), 'read again');
  const error = await t.throwsAsync(effect('write notes.txt', () => 'written'), { instanceOf: ToolFailure });
  t.is(error!.message, 'a_tool: not done again while a recording is re-run (replay or crash recovery): it would write notes.txt');
});

test('replaying, an effect recorded as abandoned settles only when the run is given up on', async (t) => {
  const recording: RecordedEffect[] = [{ cycle: 0, n: 0, at: 1100, tool: 'a_tool', name: 'run sleep', outcome: 'abandoned' }];
  const { scheduler, effect, run } = setUp({ replaying: true, recording });
  let settled = false;
  const pending = effect('run sleep', () => 'never').finally(() => (settled = true));
  await turn();
  scheduler.flush();
  await turn();
  t.false(settled);
  run.abort(new Error('given up'));
  t.is((await t.throwsAsync(pending))!.message, 'given up');
});

test('ctx.effect refuses a name that is not a non-empty string, work that is not a function and options that are not { repeatable }', (t) => {
  const { effect } = setUp();
  t.throws(() => effect('  ', () => 1), { instanceOf: TypeError, message: 'ctx.effect name: expected a non-empty string saying what the effect does, got "  "' });
  t.throws(() => effect('read a', 'notes.txt'), { instanceOf: TypeError, message: 'ctx.effect work: expected a function (signal) => value or Promise, got "notes.txt"' });
  t.throws(() => effect('read a', () => 1, { repeatable: 'yes' }), { instanceOf: TypeError, message: 'ctx.effect options.repeatable: expected true or false, got "yes"' });
});
