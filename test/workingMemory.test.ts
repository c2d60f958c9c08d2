import test from 'ava';
import fc from 'fast-check';
import { defaultMindConfig } from '../mind/config.js';
import { Journal } from '../mind/journal.js';
import { Mind } from '../mind/mind.js';
import { WorkingMemory, type MemoryEntry } from '../mind/workingMemory.js';

/** What newestWhere must return, computed the plain way: filter everything, keep the newest n. */
function reference(memory: WorkingMemory, test: (content: string) => boolean, n: number): MemoryEntry[] {
  const passing = memory.all().filter((e) => test(e.content));
  return passing.slice(Math.max(0, passing.length - n));
}

const Op = fc.oneof(
  fc.record({ op: fc.constant('push' as const), word: fc.constantFrom('mars', 'venus', 'moon', 'star'), relevance: fc.constantFrom(0.2, 0.9) }),
  fc.record({ op: fc.constant('remove' as const), pick: fc.nat(30) }),
  fc.record({ op: fc.constantFrom('checkpoint' as const, 'rollback' as const, 'reload' as const, 'snapshot' as const, 'restore' as const) }),
  fc.record({ op: fc.constant('query' as const), key: fc.constantFrom('mars', 'moon'), n: fc.integer({ min: 1, max: 6 }) }),
);

test('property: newestWhere equals filtering every entry, through pushes, evictions, removals, rollbacks and reloads', (t) => {
  fc.assert(
    fc.property(fc.array(Op, { maxLength: 120 }), (ops) => {
      const journal = new Journal();
      let memory = new WorkingMemory(journal, 8);
      let snapshot = memory.toJSON();
      // One key object per word, as memory_recall keys by its interned keyword list.
      const keys = { mars: ['mars'], moon: ['moon'] };
      for (const step of ops) {
        switch (step.op) {
          case 'push':
            memory.push({ content: `saw ${step.word}`, symbols: [], kind: 'Observation', at: 0, relevance: step.relevance }, 0);
            break;
          case 'remove': {
            const victim = memory.all()[step.pick % Math.max(1, memory.size)];
            if (victim) memory.remove(new Set([victim.id]));
            break;
          }
          case 'checkpoint':
            journal.checkpoint();
            break;
          case 'rollback':
            journal.rollback();
            break;
          case 'reload': {
            const state = memory.toJSON();
            memory = new WorkingMemory(journal, state.capacity);
            memory.load(state);
            journal.checkpoint();
            break;
          }
          case 'snapshot':
            snapshot = memory.toJSON();
            break;
          case 'restore':
            memory.load(snapshot);
            journal.checkpoint();
            break;
          case 'query': {
            const word = step.key;
            const test = (content: string) => content.endsWith(word);
            t.deepEqual(memory.newestWhere(keys[word], test, step.n), reference(memory, test, step.n));
          }
        }
      }
    }),
    { numRuns: 3000 },
  );
});

test('newestWhere sees entries that come back: an undone removal, an undone eviction, a restored state', (t) => {
  const journal = new Journal();
  const memory = new WorkingMemory(journal, 3);
  const key = {};
  const aboutMars = (content: string) => content.includes('mars');
  const newestMars = () => memory.newestWhere(key, aboutMars, 5).map((e) => e.content);
  const push = (content: string) => memory.push({ content, symbols: [], kind: 'Observation', at: 0, relevance: 0.2 }, 0);
  const mars = push('mars 1');
  push('venus 1');
  t.deepEqual(newestMars(), ['mars 1']);
  const saved = memory.toJSON();

  journal.checkpoint();
  memory.remove(new Set([mars.id]));
  t.deepEqual(newestMars(), []);
  journal.rollback();
  t.deepEqual(newestMars(), ['mars 1'], 'an undone removal');

  journal.checkpoint();
  push('venus 2');
  push('venus 3'); // evicts mars 1, the oldest low-relevance entry
  t.deepEqual(newestMars(), []);
  journal.rollback();
  t.deepEqual(newestMars(), ['mars 1'], 'an undone eviction');

  push('venus 4');
  push('venus 5');
  t.deepEqual(newestMars(), []);
  memory.load(saved);
  t.deepEqual(newestMars(), ['mars 1'], 'a restored state');
});

test('newestWhere tests each entry once per key, however often it is asked', (t) => {
  const memory = new WorkingMemory(new Journal(), 10);
  for (let i = 0; i < 10; i++) memory.push({ content: `note ${i}`, symbols: [], kind: 'Observation', at: 0, relevance: 0.2 }, 0);
  let tests = 0;
  const key = {};
  const even = (content: string) => (tests++, Number(content.split(' ')[1]) % 2 === 0);
  t.deepEqual(memory.newestWhere(key, even, 2).map((e) => e.content), ['note 6', 'note 8']);
  t.deepEqual(memory.newestWhere(key, even, 2).map((e) => e.content), ['note 6', 'note 8']);
  t.is(tests, 10);
  // A push evicts the oldest low-relevance entry (note 0): only the new entry is tested.
  memory.push({ content: 'note 10', symbols: [], kind: 'Observation', at: 0, relevance: 0.2 }, 0);
  t.deepEqual(memory.newestWhere(key, even, 3).map((e) => e.content), ['note 6', 'note 8', 'note 10']);
  t.is(tests, 11);
});

test('a mind resumed with a smaller workingMemoryCapacity cuts its restored memory to it, evicting as a full memory does', (t) => {
  const saved = new Mind();
  for (let i = 0; i < 30; i++) saved.remember({ content: `entry ${i}`, symbols: [], kind: 'Observation', at: 0, relevance: i % 10 === 0 ? 0.1 : 0.5 });
  const resumed = Mind.fromJSON(JSON.parse(JSON.stringify(saved.toJSON())), { config: { ...defaultMindConfig(), workingMemoryCapacity: 20 } });
  t.is(resumed.memory.size, 20);
  t.true(resumed.memory.pressure <= 1);
  // The low-relevance entries go first (0, 10, 20), then the oldest.
  t.deepEqual(resumed.memory.all().map((e) => e.content), Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 10 !== 0).slice(7).map((i) => `entry ${i}`));
  resumed.remember({ content: 'one more', symbols: [], kind: 'Observation', at: 0, relevance: 0.5 });
  t.is(resumed.memory.size, 20, 'and stays at it');
  resumed.rollback();
  t.is(resumed.memory.size, 20, 'a rollback does not bring the evicted entries back');
});
