/**
 * The README's examples that claim to be the code the tests run stay that
 * code: the marble-testing snippet is test/wholeCycle.test.ts (importing from
 * the package), streams/testing.ts's example is test/testingExample.test.ts,
 * and the demo's goal count is demo/goals.json's.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');

test('the README marble-testing example is test/wholeCycle.test.ts', (t) => {
  const intro = readme.indexOf('(this is `test/wholeCycle.test.ts`');
  t.true(intro >= 0, 'the README names test/wholeCycle.test.ts');
  const start = readme.indexOf('```ts\n', intro) + '```ts\n'.length;
  const snippet = readme.slice(start, readme.indexOf('```\n', start));
  t.is(snippet, read('test/wholeCycle.test.ts').replace("from '../streams/testing.js'", "from 'ooda-rx/testing'"));
});

test('the example in the doc comment of streams/testing.ts is test/testingExample.test.ts', (t) => {
  const doc = read('streams/testing.ts');
  const start = doc.indexOf(' * ```ts\n') + ' * ```ts\n'.length;
  const example = doc.slice(start, doc.indexOf(' * ```\n', start)).replace(/^ \* ?/gm, '');
  t.is(example, read('test/testingExample.test.ts').replace("from '../streams/testing.js'", "from 'ooda-rx/testing'"));
});

test('the README counts the demo goals of demo/goals.json', (t) => {
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
  const goals = JSON.parse(read('demo/goals.json')) as string[];
  t.regex(readme, new RegExp(`runs \`ooda demo\`: the ${words[goals.length]} goals of \`demo/goals.json\``));
});
