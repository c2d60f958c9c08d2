import test from 'ava';
import { Mind } from '../mind/mind.js';
import type { Tool } from '../mind/tool.js';
import { validateTool } from '../mind/toolDefinition.js';
import { ToolRegistry } from '../mind/toolRegistry.js';
import { builtinTools } from '../mind/tools/index.js';
import type { AgentEvent } from '../streams/events.js';
import { runBounded, weatherTool } from './helpers/agentRuns.js';

const weather = weatherTool();

/** The error registering `weather` with `changes` throws. */
function refusal(changes: Record<string, unknown>): string | undefined {
  return errorOf(() => new ToolRegistry().register({ ...weather, ...changes } as Tool));
}

function errorOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

test('every built-in tool fits the tool definition', (t) => {
  for (const tool of builtinTools()) t.notThrows(() => validateTool(tool), tool.name);
  t.is(new Mind({ tools: builtinTools() }).tools.size, builtinTools().length);
});

test('an unknown danger level is refused at registration, naming the tool: it would slip past the critical veto', (t) => {
  t.is(refusal({ danger: 'extreme' }), 'tool "weather_lookup": danger: expected one of safe, cautious, dangerous, critical, got "extreme"');
  t.is(refusal({ danger: 'Critical' }), 'tool "weather_lookup": danger: expected one of safe, cautious, dangerous, critical, got "Critical"');
});

test('missing or malformed keywords, scoring, input and execute are refused, naming the tool and the path', (t) => {
  t.is(refusal({ keywords: undefined }), 'tool "weather_lookup": keywords: expected array, got undefined');
  t.is(refusal({ keywords: [] }), 'tool "weather_lookup": keywords: expected at least 1 item(s), got none');
  t.is(refusal({ keywords: ['rain', ' ', 3] }), 'tool "weather_lookup": keywords.1: expected a word, got a blank string; keywords.2: expected string, got 3');
  t.is(refusal({ scoring: undefined }), 'tool "weather_lookup": scoring: expected object, got undefined');
  t.is(refusal({ scoring: { kind: 'magic' } }), 'tool "weather_lookup": scoring.kind: expected one of core, semantic, adaptive, got "magic"');
  t.is(refusal({ scoring: { kind: 'core' } }), 'tool "weather_lookup": scoring.base: expected a function, got undefined');
  t.is(refusal({ scoring: { kind: 'semantic', threshold: 1.5, multiplier: 0 } }), 'tool "weather_lookup": scoring.threshold: expected a number <= 1, got 1.5; scoring.multiplier: expected a number > 0, got 0');
  t.is(refusal({ scoring: { kind: 'adaptive', floor: Number.NaN, base: () => 0.5 } }), 'tool "weather_lookup": scoring.floor: expected number, got NaN');
  t.is(refusal({ input: undefined, execute: undefined }), 'tool "weather_lookup": input: expected a zod schema (with safeParse), got undefined; execute: expected a function, got undefined');
  t.is(refusal({ capabilities: 'net.read', consolidates: 'yes' }), 'tool "weather_lookup": capabilities: expected array, got "net.read"; consolidates: expected boolean, got "yes"');
});

test('a tool without a usable name is refused, named by its description', (t) => {
  t.is(refusal({ name: undefined }), 'tool without a name ("Look up the weather for a city"): name: expected string, got undefined');
  t.is(refusal({ name: null, description: undefined }), 'tool without a name: name: expected string, got null; description: expected string, got undefined');
  t.is(refusal({ name: 'Weather' }), 'tool "Weather": name: expected snake_case (a lowercase letter, then lowercase letters, digits or _), got "Weather"');
  t.is(errorOf(() => new ToolRegistry().register(null as unknown as Tool)), 'tool without a name: expected object, got null');
});

/** Runs an agent with `tools` on a goal, on virtual time (at most 300 events). */
const run = (tools: Tool[]): AgentEvent[] => runBounded({ mind: new Mind({ tools }), config: { maxCycles: 6 } }, 'Find the weather in Paris', 300);

for (const [what, base, said] of [
  ['returning NaN', () => Number.NaN, 'returned NaN, not a finite number'],
  ['returning a string', () => '0.9', 'returned "0.9", not a finite number'],
  ['throwing', () => {
    throw new Error('no base today');
  }, 'threw no base today'],
] as const) {
  test(`a scoring base ${what} is reported once as an error naming the tool, and the other tools carry on`, (t) => {
    const broken: Tool = { ...weather, name: 'broken_core', scoring: { kind: 'core', base: base as () => number } };
    const events = run([broken, weather]);
    const errors = events.filter((e) => e.kind === 'error');
    t.is(errors.length, 1);
    t.like(errors[0], {
      severity: 'transient',
      tool: 'broken_core',
      message: `broken_core: scoring.base ${said}: the tool is left out of decisions whenever it does (reported once)`,
    });
    const decided = events.flatMap((e) => (e.kind === 'decision' ? [e.tool] : []));
    t.true(decided.length > 0);
    t.true(decided.every((tool) => tool === 'weather_lookup'));
  });
}

test('a bad scoring base reported before a save is not reported again by the resumed mind: once per tool per mind', (t) => {
  const broken: Tool = { ...weather, name: 'broken_core', scoring: { kind: 'core', base: () => Number.NaN } };
  const first = new Mind({ tools: [broken, weather] });
  const before = runBounded({ mind: first, config: { maxCycles: 3 } }, 'Find the weather in Paris', 300);
  t.is(before.filter((e) => e.kind === 'error').length, 1);
  const resumed = Mind.fromJSON(JSON.parse(JSON.stringify(first.toJSON())), { tools: [broken, weather] });
  const after = runBounded({ mind: resumed, config: { maxCycles: 6 } }, 'Find the weather in Lyon', 300);
  t.true(after.some((e) => e.kind === 'decision'), 'the resumed mind decides');
  t.deepEqual(after.filter((e) => e.kind === 'error'), [], 'and does not report broken_core again');
});

test('a key a tool or its scoring does not take is refused, naming it and what is taken: a misspelt optional key was silently ignored', (t) => {
  t.is(
    refusal({ consolidate: true }),
    'tool "weather_lookup": consolidate: unknown key (a tool takes name, description, keywords, danger, capabilities, input, scoring, consolidates, dangerOf, propose, execute)',
  );
  t.is(
    refusal({ scoring: { kind: 'semantic', threshold: 0.3, multiplier: 1, floor: 0.1 } }),
    'tool "weather_lookup": scoring.floor: unknown key (a semantic scoring takes kind, threshold, multiplier)',
  );
});

test('an instance of a class may keep its own state beside a tool\'s keys', (t) => {
  class CachingWeather {
    readonly cache = new Map<string, string>();
    readonly name = weather.name;
    readonly description = weather.description;
    readonly keywords = weather.keywords;
    readonly danger = weather.danger;
    readonly capabilities = weather.capabilities;
    readonly input = weather.input;
    readonly scoring = weather.scoring;
    propose = weather.propose;
    execute = weather.execute;
  }
  t.notThrows(() => new ToolRegistry().register(new CachingWeather() as Tool));
});
