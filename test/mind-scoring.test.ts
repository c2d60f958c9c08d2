import test from 'ava';
import fc from 'fast-check';
import { Mind } from '../mind/mind.js';
import { observeGoal, orientGoal } from '../mind/observation.js';
import { semanticSimilarity } from '../mind/semanticProfile.js';
import { builtinTools } from '../mind/tools/index.js';
import { decideTool, scoreTools } from '../mind/toolSelection.js';
import { formatBreakdown, parseBreakdown, quantise, totalScore, type ScoreParts } from '../mind/utility.js';
import { contextFor, demoMind } from './mindFixtures.js';

const SEMANTIC = ['library_search', 'content_ingest', 'file_io', 'http_fetch', 'shell_exec', 'user_interact'];

function candidatesFor(mind: Mind, description: string) {
  const goal = mind.addGoal({ description });
  return { goal, candidates: scoreTools(mind, orientGoal(mind, observeGoal(mind, goal, 0))) };
}

const parts = fc.record({
  base: fc.double({ min: 0, max: 1, noNaN: true }),
  recency: fc.constantFrom(0, 0.1, 0.2, 0.4),
  novelty: fc.constantFrom(0, 0.15),
  episodic: fc.constantFrom(0, 0.2),
  pressure: fc.constantFrom(0, 0.2),
  archetype: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
  plan: fc.option(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { nil: undefined }),
});

test('property: every breakdown string parses back into parts that add up to its score', (t) => {
  fc.assert(
    fc.property(parts, (raw) => {
      const p: ScoreParts = { ...raw };
      if (raw.plan === undefined) delete p.plan;
      const parsed = parseBreakdown(formatBreakdown(p));
      if (!parsed) return false;
      const q = parsed.parts;
      const sum = q.base - q.recency + q.novelty + q.episodic + q.pressure + q.archetype + (q.plan ?? 0);
      // The string carries exactly this input's quantised parts (formatted strings are memoised by their parts).
      const expected = quantise(p);
      const same = (Object.keys(expected) as (keyof ScoreParts)[]).every((k) => Math.abs(q[k]! - expected[k]!) < 1e-9) && (q.plan === undefined) === (expected.plan === undefined);
      return same && Math.abs(sum - parsed.score) < 1e-9 && Math.abs(parsed.score - totalScore(expected)) < 1e-9 && Math.abs(q.archetype) <= 0.07;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test('property: a breakdown always shows its own parts, however many breakdowns came before', (t) => {
  // Few values per part, at the edges of the ranges, so that equal and nearly equal parts meet often
  // (formatted strings are memoised by their parts).
  const coarse = fc.record({
    base: fc.constantFrom(0, 0.5, 1, 1.01, -0.01),
    recency: fc.constantFrom(0, 0.4),
    novelty: fc.constantFrom(0, 0.15),
    episodic: fc.constantFrom(0, 0.2),
    pressure: fc.constantFrom(0, 0.01, 0.2),
    archetype: fc.constantFrom(-0.07, -0.05, 0, 0.07, 0.1),
    plan: fc.constantFrom(undefined, -1, 0, 1, 1.01, -1.01),
  });
  fc.assert(
    fc.property(coarse, (raw) => {
      const p: ScoreParts = { ...raw };
      if (raw.plan === undefined) delete p.plan;
      t.deepEqual(parseBreakdown(formatBreakdown(p))!.parts, quantise(p));
    }),
    { numRuns: 5000 },
  );
});

test('property: every real decision on the demo graph carries a breakdown that adds up to its score', (t) => {
  const words = ['find', 'moons', 'mars', 'stars', 'planets', 'orbits', 'whales', 'have', 'birds', 'fly', 'comets', 'read', 'file', 'paper', 'ask', 'user', 'rules'];
  const mind = demoMind();
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 4 }), (goalWords, cycles) => {
      const goal = mind.addGoal({ description: goalWords.join(' ') });
      for (let i = 0; i < cycles; i++) {
        const decision = decideTool(mind, orientGoal(mind, observeGoal(mind, goal, i)), contextFor(mind, goal, i));
        if (!decision) return false;
        const parsed = parseBreakdown(decision.breakdown)!;
        const p = parsed.parts;
        if (Math.abs(p.base - p.recency + p.novelty + p.episodic + p.pressure + p.archetype + (p.plan ?? 0) - decision.score) > 1e-9) return false;
        if (parsed.score !== decision.score) return false;
      }
      return true;
    }),
    { numRuns: 200 },
  );
  t.pass();
});

test('the semantic scale: unrelated text scores 0, a tool\'s own vocabulary 1, the seed\'s paper question 0.5 for library_search', (t) => {
  const mind = new Mind({ tools: builtinTools() });
  const tool = (name: string) => mind.tools.get(name)!;
  const score = (description: string, name: string) => semanticSimilarity(mind, mind.addGoal({ description }), tool(name));
  for (const name of SEMANTIC) t.is(score('Classify the giant planets by their moons', name), 0, name);
  t.true(score('Find moons of Mars', 'library_search') < 0.5, '"find" is a synonym of search, but one word of three is below the threshold');
  t.is(score('What did that paper say about gravity?', 'library_search'), 0.5);
  t.is(score('read write file folder', 'file_io'), 1);
  t.true(score('Download the web page', 'http_fetch') >= 0.55);
});

test('semantic tools are not candidates for unrelated goals', (t) => {
  const mind = demoMind();
  for (const description of ['Find moons of Mars', 'Find stars, classify planets, and map orbits', 'Learn what whales have', 'Find gas giants, ice giants and comets']) {
    const { candidates } = candidatesFor(mind, description);
    const semantic = candidates.filter((c) => SEMANTIC.includes(c.tool.name)).map((c) => c.tool.name);
    t.deepEqual(semantic, [], description);
  }
});

test('semantic tools are chosen for goals about their domain', (t) => {
  const cases: [string, string][] = [
    ['What did that paper say about gravity?', 'library_search'],
    ['Ingest this text: "Halley is a comet. Halley has a tail."', 'content_ingest'],
    ['Read the file notes.txt in the workspace folder', 'file_io'],
    ['Download the web page https://example.org/index.html', 'http_fetch'],
    ['Run the shell command `ls -la` in a terminal', 'shell_exec'],
    ['Ask the user a question about their favourite colour', 'user_interact'],
  ];
  for (const [description, expected] of cases) {
    const mind = demoMind();
    const { candidates } = candidatesFor(mind, description);
    t.is(candidates[0]!.tool.name, expected, `${description}: ${candidates.slice(0, 3).map((c) => `${c.tool.name} ${c.score}`).join(', ')}`);
  }
});

test('an impasse is reported when the top two are within 0.02', (t) => {
  const mind = demoMind();
  const goal = mind.addGoal({ description: 'Find moons of Mars' });
  const decision = decideTool(mind, orientGoal(mind, observeGoal(mind, goal, 0)), contextFor(mind, goal))!;
  const [second] = decision.alternatives;
  t.is(decision.impasse !== undefined, decision.score - second!.score <= 0.02 + 1e-9);
});

test('an adjuster that returns no number is an error naming it and the tool, not a score of NaN', (t) => {
  const cases: [Partial<Mind['adjusters']>, string][] = [
    [{ archetype: () => Number.NaN }, 'mind.adjusters.archetype returned NaN for tool kg_query (expected a number)'],
    [{ archetype: () => undefined as unknown as number }, 'mind.adjusters.archetype returned undefined for tool kg_query (expected a number)'],
    [{ plan: () => Number.POSITIVE_INFINITY }, 'mind.adjusters.plan returned Infinity for tool kg_query (expected a finite number or undefined)'],
    [{ plan: () => '0.2' as unknown as number }, 'mind.adjusters.plan returned "0.2" for tool kg_query (expected a finite number or undefined)'],
  ];
  for (const [adjusters, message] of cases) {
    const mind = new Mind({ tools: builtinTools() });
    mind.adjusters = { ...mind.adjusters, ...adjusters };
    t.throws(() => candidatesFor(mind, 'Find moons of Mars'), { instanceOf: TypeError, message });
  }
  const clamped = new Mind({ tools: builtinTools() });
  clamped.adjusters = { ...clamped.adjusters, archetype: () => Number.POSITIVE_INFINITY };
  t.true(candidatesFor(clamped, 'Find moons of Mars').candidates.every((c) => c.parts.archetype === 0.07), 'an archetype bias is clamped to ±0.07');
});
