import test from 'ava';
import { of, VirtualTimeScheduler } from 'rxjs';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { Psyche } from '../mind/psyche.js';
import { ConfigError } from '../streams/config.js';
import { createAgent, type AgentOptions, type AgentSources } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { createTestAgent } from '../streams/testing.js';

/** createAgent with options an untyped (JavaScript) caller might pass. */
const create = (options: Record<string, unknown>) => () => createAgent(options as AgentOptions);

test('a bad config option is a ConfigError naming the key, like resolveConfig', (t) => {
  const error = t.throws(create({ config: { maxCycles: -1 } }), { instanceOf: ConfigError });
  t.is(error.message, 'config createAgent options: maxCycles: Too small: expected number to be >=0 (got -1)');
  t.throws(create({ config: { maxCylces: 5 } }), { instanceOf: ConfigError, message: /^config createAgent options: maxCylces: / });
  t.throws(create({ config: 7 }), { instanceOf: ConfigError, message: /^config createAgent options: \(root\): / });
});

test('with a mind of the caller\u2019s, a config setting of the mind\u2019s that differs from the mind\u2019s own is refused, naming it: it would be silently ignored', (t) => {
  const mind = () => new Mind({ config: MindConfig.parse({ stallThreshold: 50 }) });
  t.throws(create({ mind: mind(), config: { maxCycles: 3, maxBacktrackAttempts: 0 } }), {
    instanceOf: TypeError,
    message: "config.maxBacktrackAttempts: 0 is not the given mind's (3): a mind keeps the config it was made with; pass it to new Mind({ config })",
  });
  t.throws(create({ mind: mind(), config: { tools: { shellExec: true } } }), { instanceOf: TypeError, message: /^config\.tools\.shellExec: true is not the given mind's \(false\)/ });
  const agent = createAgent({ mind: mind(), config: { maxCycles: 3, stallThreshold: 50, heartbeatMs: 0 } });
  t.is(agent.mind.config.stallThreshold, 50, 'the same value, and the agent\u2019s own settings, are taken');
  t.is(agent.config.maxCycles, 3);
});

test('only what config gives is compared with a given mind\u2019s settings: a section key by key, undefined as nothing, the seed the mind runs with; createTestAgent adds no seed of its own to a mind of yours', (t) => {
  const lenient = new Mind({ config: MindConfig.parse({ stallThreshold: 10, tools: { shellExec: true } }), seed: 7 });
  t.notThrows(() => createAgent({ mind: lenient, config: { seed: 7, stallThreshold: undefined, tools: { fileMaxBytes: 1_048_576 } } }));
  t.throws(() => createAgent({ mind: new Mind({ config: MindConfig.parse({ tools: { shellExec: true } }) }), config: { tools: { shellExec: false } } }), {
    instanceOf: TypeError,
    message: "config.tools.shellExec: false is not the given mind's (true): a mind keeps the config it was made with; pass it to new Mind({ config })",
  });
  t.notThrows(() => createTestAgent(new VirtualTimeScheduler(), { mind: new Mind({ seed: 7 }) }));
});

test('createTestAgent refuses a config that is no object as createAgent does, instead of spreading it into no config', (t) => {
  const scheduler = new VirtualTimeScheduler();
  for (const config of [7, 'maxCycles=1', [1]]) {
    t.throws(() => createTestAgent(scheduler, { config } as never), { instanceOf: ConfigError, message: /^config createAgent options: \(root\): / });
  }
  t.like(createTestAgent(scheduler, { config: { maxCycles: 2 } }).config, { maxCycles: 2, seed: 1, heartbeatMs: 0 });
});

test('watchers must be an array of functions, named by index', (t) => {
  t.throws(create({ watchers: [42] }), { instanceOf: TypeError, message: 'watchers[0] is not a function (got 42)' });
  t.throws(create({ watchers: [() => undefined, null] }), { message: 'watchers[1] is not a function (got null)' });
  t.throws(create({ watchers: () => undefined }), { message: 'watchers must be an array (got a function)' });
});

test('tools and skills must be arrays of objects; a registry refusing one is named by index', (t) => {
  t.throws(create({ tools: {} }), { message: 'tools must be an array (got an object)' });
  t.throws(create({ tools: [null] }), { message: 'tools[0] is not an object (got null)' });
  t.throws(create({ tools: [{ name: 'Bad Name' }] }), { message: /^tools\[0\]: .*Bad Name/ });
  t.throws(create({ skills: ['policy'] }), { message: 'skills[0] is not an object (got "policy")' });
  const trigger = () => false;
  t.throws(create({ skills: [{ name: 'a', trigger }, { name: 'a', trigger }] }), { message: 'skills[1]: skill "a" is already registered' });
  t.throws(create({ skills: [{ name: 'a' }] }), { message: /^skills\[0\]: skill "a" needs a trigger/ });
});

test('commands must be [name, handler] pairs, named by index', (t) => {
  t.throws(create({ commands: 5 }), { message: 'commands must be an iterable of [name, handler] pairs, e.g. a Map (got 5)' });
  t.throws(create({ commands: [42] }), { message: 'commands[0] is not a [name, handler] pair (got 42)' });
  t.throws(create({ commands: new Map([['ping', 'pong']]) }), { message: 'commands[0] (ping): the handler is not a function (got "pong")' });
});

test('good options are accepted, a commands generator included', (t) => {
  function* commands(): Generator<[string, () => string]> {
    yield ['ping', () => 'pong'];
  }
  const agent = createTestAgent(new VirtualTimeScheduler(), { commands: commands(), watchers: [], tools: [], skills: [] });
  t.true(agent.runtime.commands.has('ping'));
  t.true(agent.runtime.commands.has('stop'));
});

test('a bad psyche option is a TypeError naming its full path and what it must be, like the other options', (t) => {
  const archetype = (name: string, weight: unknown = 0.5) => ({ name, weight, tools: ['kg_query'] });
  const cases: [unknown, string][] = [
    [{ archetypes: [archetype('sage'), archetype('healer'), archetype('explorer', 2)] }, 'psyche.archetypes[2].weight must be a number in [0, 1] (got 2)'],
    [{ archetypes: [archetype('sage'), archetype('healer', 'x')] }, 'psyche.archetypes[1].weight must be a number in [0, 1] (got "x")'],
    [{ archetypes: [{ name: 'sage', tools: [] }] }, 'psyche.archetypes[0].weight must be a number in [0, 1] (missing)'],
    [{ archetypes: [archetype('')] }, 'psyche.archetypes[0].name must be a non-empty string (got "")'],
    [{ archetypes: [{ name: 'sage', weight: 0.5, tools: 'kg_query' }] }, 'psyche.archetypes[0].tools must be an array of tool names (got "kg_query")'],
    [{ archetypes: [{ name: 'sage', weight: 0.5, tools: ['kg_query', 5] }] }, 'psyche.archetypes[0].tools[1] must be a tool name (a string) (got 5)'],
    [{ archetypes: [archetype('sage'), 7] }, 'psyche.archetypes[1] must be an archetype ({ name, weight, tools }) (got 7)'],
    [{ archetypes: [{ ...archetype('sage'), wieght: 0.7 }] }, 'psyche.archetypes[0] has an unknown key "wieght" (an archetype takes name, weight, tools)'],
    [{ archetypes: 'sage' }, 'psyche.archetypes must be an array of archetypes ({ name, weight, tools }), or left out for the defaults (got "sage")'],
    [{ shadow: [{ name: 'no-prod', kind: 'ban', text: 'prod', reason: 'r' }] }, 'psyche.shadow[0].kind must be "veto" or "bias" (got "ban")'],
    [{ shadow: [{ name: 'no-prod', kind: 'veto', reason: 'r' }] }, 'psyche.shadow[0] must set at least one of tool, capability, danger, text, goalId (without one it would match every action)'],
    [{ shadow: [{ name: 'slow', kind: 'bias', tool: 'kg_query', reason: 'r', penalty: 0.5 }] }, 'psyche.shadow[0].penalty must be a number in (0, 0.07] (got 0.5)'],
    [{ shadow: [{ name: 'big', kind: 'veto', danger: 'extreme', reason: 'r' }] }, 'psyche.shadow[0].danger must be one of safe, cautious, dangerous, critical (got "extreme")'],
    [{ shadow: [{ name: 'no-prod', kind: 'veto', text: 'prod' }] }, 'psyche.shadow[0].reason must be a string (missing)'],
    [
      { shadow: [{ name: 'slow', kind: 'bias', tool: 'kg_query', reason: 'r', penality: 0.05 }] },
      'psyche.shadow[0] has an unknown key "penality" (a shadow pattern takes name, kind, tool, capability, danger, text, goalId, penalty, untilCycle, reason)',
    ],
    ['sage', 'psyche must be an object ({ archetypes?, shadow? }) (got "sage")'],
    [null, 'psyche must be an object ({ archetypes?, shadow? }) (got null)'],
    [{ archetype: [] }, 'psyche has an unknown key "archetype" (the psyche option takes archetypes and shadow)'],
  ];
  for (const [psyche, message] of cases) {
    t.throws(create({ psyche }), { instanceOf: TypeError, message });
    t.throws(() => Psyche.attach(new Mind(), psyche as never), { instanceOf: TypeError, message }, 'Psyche.attach says the same');
  }
});

test('psyche.archetypes may not be empty: the psyche needs a dominant archetype', (t) => {
  const message = 'psyche.archetypes must list at least one archetype (the dominant archetype is one of them; leave archetypes out for the defaults)';
  t.throws(create({ psyche: { archetypes: [] } }), { message });
  const mind = new Mind();
  Psyche.attach(mind);
  t.throws(create({ mind, psyche: { archetypes: [] } }), { message }, 'checked even when the mind has a psyche already');
});

test('psyche.shadow must be a list of patterns; the error names what a pattern takes', (t) => {
  t.throws(create({ psyche: { shadow: 'nope' } }), {
    message:
      'psyche.shadow must be an array of patterns ({ name, kind, reason, and at least one of tool, capability, danger, text, goalId }), ' +
      '[] for none, or left out for the default one (got "nope")',
  });
});

test('Psyche.addPattern checks a pattern as the shadow option does', (t) => {
  const psyche = Psyche.attach(new Mind(), { shadow: [] });
  t.throws(() => psyche.addPattern({ name: 'no-prod', kind: 'ban', text: 'prod', reason: 'r' } as never), { message: 'pattern.kind must be "veto" or "bias" (got "ban")' });
  psyche.addPattern({ name: 'no-prod', kind: 'veto', text: 'prod', reason: 'r' });
  t.deepEqual(psyche.shadow, [{ name: 'no-prod', kind: 'veto', text: 'prod', reason: 'r' }]);
});

test('good psyche options are accepted, an empty shadow included', (t) => {
  const agent = createTestAgent(new VirtualTimeScheduler(), { psyche: { archetypes: [{ name: 'sage', weight: 0.7, tools: ['kg_query'] }], shadow: [] } });
  const psyche = Psyche.of(agent.mind)!;
  t.deepEqual(psyche.archetypes, [{ name: 'sage', weight: 0.7, tools: ['kg_query'] }]);
  t.deepEqual(psyche.shadow, []);
});

test('the other options are checked for their kind, naming the option, before anything runs', (t) => {
  t.throws(create({ scheduler: {} }), { instanceOf: TypeError, message: 'scheduler must be a SchedulerLike (with now() and schedule()) (got an object)' });
  t.throws(create({ session: 5 }), { message: 'session must be a non-empty string (got 5)' });
  t.throws(create({ session: ' ' }), { message: 'session must be a non-empty string (got " ")' });
  t.throws(create({ mind: {} }), { message: 'mind must be a Mind (got an object)' });
  t.throws(create({ cycle: 5 }), { message: 'cycle must be a function (stages, runtime) => operator (got 5)' });
  t.throws(create({ cycle: () => 5 }), { message: 'cycle must return an operator function (it returned 5)' });
  for (const firstSeq of [-5, 1.5, NaN, '1']) t.throws(create({ firstSeq }), { message: /^firstSeq must be a whole number ≥ 0 \(got / });
  t.throws(create({ replaying: 'yes' }), { message: 'replaying must be true or false (got "yes")' });
  t.throws(create({ onEnter: 5 }), { message: 'onEnter must be a function or an array of functions (got 5)' });
  t.throws(create({ onEnter: [() => undefined, undefined] }), { message: 'onEnter[1] must be a function (got undefined)' });
  t.throws(create({ effects: { record: 'stdout' } }), { message: 'effects must be an object with optional record and recorded functions (got an object)' });
  t.throws(create({ effects: null }), { message: 'effects must be an object with optional record and recorded functions (got null)' });
  t.notThrows(create({ scheduler: new VirtualTimeScheduler(), session: 's', mind: new Mind(), cycle: () => (c: unknown) => c, firstSeq: 7, replaying: false, onEnter: () => undefined }));
});

test('an option createAgent does not take (a misspelt tools) is refused, naming it, rather than silently left out; so are options that are no object', (t) => {
  const takes = 'config, scheduler, session, mind, tools, cycle, watchers, skills, psyche, commands, firstSeq, replaying, effects, onEnter';
  t.throws(create({ tool: [] }), { instanceOf: TypeError, message: `createAgent takes no option "tool" (it takes ${takes})` });
  t.throws(create({ config: {}, watcher: [] }), { message: `createAgent takes no option "watcher" (it takes ${takes})` });
  for (const [options, what] of [[null, 'null'], [5, '5'], [[], 'an array']] as const) {
    t.throws(() => createAgent(options as never), { instanceOf: TypeError, message: `createAgent takes an object of options (${takes}) (got ${what})` });
  }
  t.notThrows(create({ tools: undefined, session: 's' }), 'an option left undefined takes its default');
});

test('run() checks its sources, naming the one that is wrong, and leaves the agent free to run again', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler);
  const run = (sources: unknown) => () => agent.run(sources as AgentSources);
  t.throws(run({ input: [of()] }), { instanceOf: TypeError, message: 'run() takes no source "input" (it takes inputs, signals, live, ambient, keepAlive, drive, hold)' });
  t.throws(run({ inputs: of() }), { message: 'inputs must be an array of Observables (got an object)' });
  t.throws(run({ signals: [of(), 'tick'] }), { message: 'signals[1] must be an Observable (got "tick")' });
  t.throws(run({ ambient: [null] }), { message: 'ambient[0] must be an Observable (got null)' });
  t.throws(run({ keepAlive: 'yes' }), { message: 'keepAlive must be true or false (got "yes")' });
  t.throws(run({ drive: 0 }), { message: 'drive must be true or false (got 0)' });
  t.throws(run({ hold: true }), { message: 'hold must be an Observable of booleans (got true)' });
  t.throws(run([of()]), { message: 'run() takes an object of sources (inputs, signals, live, ambient, keepAlive, drive, hold) (got an array)' });
  const events: AgentEvent[] = [];
  const events$ = agent.run({ inputs: [of()], signals: [], ambient: [], keepAlive: false, drive: true, hold: of(false) });
  events$.subscribe((e) => events.push(e));
  events$.connect();
  scheduler.flush();
  t.like(events.at(-1), { kind: 'session', state: 'stopped' }, 'a refused run() left no run live');
});

test('what an onEnter hook returns takes the pass only when it is the item of the same kind: a recorder\'s mark is reported, a push\'s count or a Map is ignored', (t) => {
  const run = (onEnter: AgentOptions['onEnter']): AgentEvent[] => {
    const scheduler = new VirtualTimeScheduler();
    const agent = createTestAgent(scheduler, { config: { maxCycles: 1 }, onEnter });
    const events: AgentEvent[] = [];
    const events$ = agent.run();
    events$.subscribe((e) => events.push(e));
    events$.connect();
    agent.inject({ type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' });
    scheduler.flush();
    return events;
  };
  const marked = run((entering) => ('signal' in entering ? { signal: { ...entering.signal, meta: { ...entering.signal.meta, snapshotFailed: 'no room' } } } : undefined));
  t.like(marked.find((e) => e.kind === 'error'), { severity: 'critical', message: 'no room', rolledBack: false });
  const seen: unknown[] = [];
  const map = new Map<number, unknown>();
  for (const onEnter of [(e: unknown) => seen.push(e), (e: unknown) => map.set(1, e), () => ({ rejected: 'not a rejection of this signal' })] as unknown as AgentOptions['onEnter'][]) {
    const events = run(onEnter);
    t.is(events.filter((e) => e.kind === 'error').length, 0);
    t.like(events.find((e) => e.kind === 'fact'), { subject: 'Mars', added: true });
  }
});

test('an onEnter hook that throws is a critical error event on the pass; the pass goes on and the run stops normally', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, {
    config: { maxCycles: 1 },
    onEnter: (entering) => {
      if ('signal' in entering && entering.signal.type === 'fact') throw new Error('disk full');
    },
  });
  const { events, failures } = injectMarsFact(agent, scheduler);
  t.deepEqual(failures, [], 'the stream never errors');
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', message: 'onEnter failed: disk full; the pass went on', rolledBack: false });
  t.like(events.find((e) => e.kind === 'fact'), { subject: 'Mars', added: true });
  t.like(events.at(-1), { kind: 'session', state: 'stopped' });
});

test('a list of onEnter hooks is called in order, each with what the ones before let take the pass; one that throws is named by its index and the next is still called', (t) => {
  const scheduler = new VirtualTimeScheduler();
  const seen: (string | undefined)[] = [];
  const agent = createTestAgent(scheduler, {
    config: { maxCycles: 1 },
    onEnter: [
      (entering) => ('signal' in entering ? { signal: { ...entering.signal, meta: { ...entering.signal.meta, correlationId: 'first' } } } : undefined),
      () => {
        throw new Error('disk full');
      },
      (entering) => void seen.push('signal' in entering ? entering.signal.meta.correlationId : undefined),
    ],
  });
  const { events, failures } = injectMarsFact(agent, scheduler);
  t.deepEqual(failures, []);
  t.deepEqual(seen, ['first'], "the last hook saw the first one's mark");
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', message: 'onEnter[1] failed: disk full; the pass went on' });
  t.like(events.find((e) => e.kind === 'fact'), { subject: 'Mars', added: true });
});

test('an onEnter hook that returns a marked signal that is none is a critical error event naming it; the signal as it entered takes the pass, and the stream never errors', (t) => {
  for (const [mark, what] of [[null, 'null'], [42, '42'], [{ type: 'fact' }, 'an object']] as const) {
    const scheduler = new VirtualTimeScheduler();
    const agent = createTestAgent(scheduler, { config: { maxCycles: 1 }, onEnter: () => ({ signal: mark }) as never });
    const { events, failures } = injectMarsFact(agent, scheduler);
    t.deepEqual(failures, [], what);
    t.like(events.find((e) => e.kind === 'error'), {
      severity: 'critical',
      message: `onEnter returned a marked item the pass cannot take (${what}, not a signal (an object with type, depth and meta)); the item as it entered took the pass`,
    });
    t.like(events.find((e) => e.kind === 'fact'), { subject: 'Mars', added: true });
    t.like(events.at(-1), { kind: 'session', state: 'stopped' });
  }
});

/** Runs the agent, injects one fact and flushes: the events, and anything the stream errored with. */
function injectMarsFact(agent: ReturnType<typeof createTestAgent>, scheduler: VirtualTimeScheduler): { events: AgentEvent[]; failures: unknown[] } {
  const events: AgentEvent[] = [];
  const failures: unknown[] = [];
  const events$ = agent.run();
  events$.subscribe({ next: (e) => events.push(e), error: (e) => failures.push(e) });
  events$.connect();
  agent.inject({ type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' });
  scheduler.flush();
  return { events, failures };
}
