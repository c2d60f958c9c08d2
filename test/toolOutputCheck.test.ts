/**
 * A tool's output is checked against ToolOutput field by field: a field of the
 * wrong kind is a transient tool failure naming the tool and the field (not a
 * TypeError deep in goal evaluation, a rollback and the same pass again), and
 * the agent works on with another tool.
 */
import test from 'ava';
import { VirtualTimeScheduler } from 'rxjs';
import { Mind } from '../mind/mind.js';
import { ToolFailure, type ToolOutput } from '../mind/tool.js';
import { runTool } from '../mind/toolRun.js';
import type { Decision } from '../mind/toolSelection.js';
import type { AgentEvent } from '../streams/events.js';
import { createTestAgent, flushSettled } from '../streams/testing.js';
import { scriptedTool } from './helpers/runtime.js';
import { contextFor } from './mindFixtures.js';

const fact = { subject: 'mars', predicate: 'has_moon', object: 'phobos' };

/** What the tool returns, and the problem named after `returned an invalid ToolOutput: `. */
const MALFORMED: [string, Record<string, unknown>, string][] = [
  ['ok', { ok: 'yes', summary: 's' }, 'ok must be a boolean (got "yes")'],
  ['summary', { ok: true }, 'summary must be a string (got undefined)'],
  ['content', { ok: true, summary: 's', content: 42 }, 'content must be a string (got 42)'],
  ['symbols', { ok: true, summary: 's', symbols: 'Mars' }, 'symbols must be an array of strings (got "Mars")'],
  ['a symbol', { ok: true, summary: 's', symbols: ['mars', 3] }, 'symbols[1] must be a string (got 3)'],
  ['added', { ok: true, summary: 's', added: '1' }, 'added must be a finite number (got "1")'],
  ['added (NaN)', { ok: true, summary: 's', facts: [fact], added: Number.NaN }, 'added must be a finite number (got NaN)'],
  ['facts', { ok: true, summary: 's', facts: fact }, 'facts must be an array of { subject, predicate, object } (got an object)'],
  ['a fact', { ok: true, summary: 's', facts: [fact, null] }, 'facts[1] must be an object { subject, predicate, object } (got null)'],
  ['a fact subject', { ok: true, summary: 's', facts: [{ subject: 1, predicate: 'p', object: 'o' }] }, 'facts[0].subject must be a string (got 1)'],
  ['a fact predicate', { ok: true, summary: 's', facts: [fact, { subject: 's', predicate: ['p'], object: 'o' }] }, 'facts[1].predicate must be a string (got an array)'],
  ['a fact object', { ok: true, summary: 's', facts: [{ subject: 's', predicate: 'p' }] }, 'facts[0].object must be a string (got undefined)'],
  ['asked', { ok: true, summary: 's', asked: 'yes' }, 'asked must be an object { questionId, text, timeoutMs } (got "yes")'],
  ['asked.questionId', { ok: true, summary: 's', asked: { questionId: 7, text: 't', timeoutMs: 1000 } }, 'asked.questionId must be a string (got 7)'],
  ['asked.text', { ok: true, summary: 's', asked: { questionId: 'q-1', text: null, timeoutMs: 1000 } }, 'asked.text must be a string (got null)'],
  ['asked.timeoutMs', { ok: true, summary: 's', asked: { questionId: 'q-1', text: 't', timeoutMs: '1s' } }, 'asked.timeoutMs must be a finite number (got "1s")'],
  ['followUp', { ok: true, summary: 's', followUp: { again: true } }, 'followUp must be a string (got an object)'],
  [
    'asked (a question never registered)',
    { ok: true, summary: 's', asked: { questionId: 'q-x', text: 'what city?', timeoutMs: 1000 } },
    'asked.questionId "q-x" names no pending question (register it with ctx.mind.questions.ask before returning it)',
  ],
];

/** A well-formed output with every field and unknown extra fields (on the output and on a fact). */
const WELL_FORMED = {
  ok: true,
  summary: 'looked up mars',
  content: 'Mars has two moons.',
  symbols: ['mars'],
  added: 0,
  facts: [{ ...fact, confidence: 0.9, source: 'almanac' }],
  data: { anything: [1, 'two', null] },
  followUp: '',
  elapsedMs: 12,
  raw: { whatever: true },
};

function runOnce(output: unknown): ToolOutput | Promise<ToolOutput> {
  const mind = new Mind({ tools: [scriptedTool('kg_lookup', 0.9, () => output as ToolOutput)] });
  const goal = mind.addGoal({ description: 'Find moons of Mars' });
  return runTool({ goalId: goal.id, tool: 'kg_lookup', input: { n: 0 } } as Decision, contextFor(mind, goal));
}

test('a tool output with a field of the wrong kind is a ToolFailure naming the tool and the field', (t) => {
  for (const [, output, problem] of MALFORMED) {
    const error = t.throws(() => runOnce(output), { instanceOf: ToolFailure });
    t.is(error!.message, `kg_lookup: returned an invalid ToolOutput: ${problem}`);
    t.is((error as ToolFailure).tool, 'kg_lookup');
  }
  for (const nothing of [undefined, null, 'done', []]) {
    t.is(t.throws(() => runOnce(nothing), { instanceOf: ToolFailure })!.message, 'kg_lookup: returned no ToolOutput ({ ok, summary })');
  }
});

test('a well-formed output with unknown extra fields is accepted as it is', async (t) => {
  t.is(runOnce(WELL_FORMED), WELL_FORMED as ToolOutput);
  t.is(await runOnce(Promise.resolve(WELL_FORMED)), WELL_FORMED as ToolOutput);
  const minimal = { ok: false, summary: 'nothing', content: undefined };
  t.is(runOnce(minimal), minimal as ToolOutput);
});

interface Run {
  events: AgentEvent[];
  mind: Mind;
  completed: boolean;
  streamError?: unknown;
}

/**
 * Every event of a run of at most 20 cycles on virtual time on one goal,
 * with the tool `kg_lookup` (base 0.95) running `execute` and the tool
 * `steady` (base 0.5) always returning a plain ok that establishes nothing.
 */
async function runAgent(execute: () => ToolOutput | PromiseLike<ToolOutput>): Promise<Run> {
  const scheduler = new VirtualTimeScheduler();
  const steady = scriptedTool('steady', 0.5, () => ({ ok: true, summary: 'steady ran' }));
  const agent = createTestAgent(scheduler, { tools: [scriptedTool('kg_lookup', 0.95, execute), steady], config: { maxCycles: 20, stallThreshold: 1_000_000 } });
  const run: Run = { events: [], mind: agent.mind, completed: false };
  const events$ = agent.run({ inputs: [] });
  events$.subscribe({ next: (e) => run.events.push(e), error: (e: unknown) => (run.streamError = e), complete: () => (run.completed = true) });
  events$.connect();
  agent.inject({ type: 'goal', description: 'Find moons of Mars', priority: 5, depth: 0, meta: {} });
  await flushSettled(scheduler);
  return run;
}

for (const async of [false, true]) {
  const how = async ? 'an async tool (a Promise of it)' : 'a tool';
  for (const [field, output, problem] of MALFORMED) {
    test(`${how} returning a malformed ${field} fails transiently, is blamed, and is handled like a tool that throws`, async (t) => {
      const message = `kg_lookup: returned an invalid ToolOutput: ${problem}`;
      const run = await runAgent(() => (async ? Promise.resolve(output as unknown as ToolOutput) : (output as unknown as ToolOutput)));
      const { events, mind } = run;
      t.is(run.streamError, undefined);
      t.true(run.completed);

      const broken = events.filter((e) => e.kind === 'action' && e.tool === 'kg_lookup');
      t.true(broken.length > 0);
      for (const action of broken) t.like(action, { status: 'failed', summary: message });
      const errors = events.filter((e) => e.kind === 'error');
      t.true(errors.length > 0);
      for (const error of errors) t.like(error, { severity: 'transient', tool: 'kg_lookup', message, rolledBack: false });

      // Not rolled back: the failed runs stay in the mind's provenance and working memory,
      // the goal's failure counter advances until the goal fails, and loop detection sees the repeats.
      t.true(mind.provenance.some((p) => p.tool === 'kg_lookup' && p.status === 'failed'));
      t.true(mind.memory.recent(mind.memory.capacity).some((e) => e.kind === 'Action' && e.content.includes(problem)));
      t.like(mind.goals.all().find((g) => g.description === 'Find moons of Mars'), { status: 'Failed' });
      t.true(mind.cycle < 20, `the run ended at cycle ${mind.cycle}, its goal failed`);
      t.true(events.some((e) => e.kind === 'loop' && e.actionType === 'kg_lookup'));
      // The other tool gets its turns.
      t.true(events.some((e) => e.kind === 'action' && e.tool === 'steady' && e.status === 'ok'));

      // Exactly what a tool that throws (or rejects with) an Error saying the same gets.
      const fails = new Error(`returned an invalid ToolOutput: ${problem}`);
      const thrower = await runAgent(() => {
        if (async) return Promise.reject(fails);
        throw fails;
      });
      t.deepEqual(events, thrower.events);
    });
  }
}

for (const async of [false, true]) {
  test(`${async ? 'an async tool' : 'a tool'} returning a well-formed output with unknown extra fields runs without an error`, async (t) => {
    const { events } = await runAgent(() => (async ? Promise.resolve(WELL_FORMED) : WELL_FORMED));
    t.false(events.some((e) => e.kind === 'error'));
    t.like(events.find((e) => e.kind === 'action' && e.tool === 'kg_lookup'), { status: 'ok', summary: 'looked up mars' });
  });
}

test('an output that throws as it is read fails as if the tool had thrown: an Error is a ToolFailure naming the tool, a TypeError a ToolBug', (t) => {
  const failing = t.throws(() => runOnce({ ok: true, get summary(): string { throw new Error('summary not ready'); } }), { instanceOf: ToolFailure });
  t.is(failing.message, 'kg_lookup: summary not ready');
  const bug = t.throws(() => runOnce(new Proxy({}, { get() { throw new TypeError('revoked'); } })));
  t.like(bug, { name: 'ToolBug(TypeError)', tool: 'kg_lookup', message: 'revoked' });
});
