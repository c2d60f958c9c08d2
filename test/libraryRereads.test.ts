import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import type { ToolOutput } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import { runTool } from '../mind/toolRun.js';
import type { Decision } from '../mind/toolSelection.js';
import { contextFor } from './mindFixtures.js';

test('reading the same unchanged file again does not grow the library or repeat its passage in searches; a changed file joins it', async (t) => {
  const workspace = await mkdtemp(join(tmpdir(), 'ooda-library-'));
  await writeFile(join(workspace, 'notes.txt'), 'Phobos is a moon of Mars.');
  const mind = new Mind({ config: MindConfig.parse({ tools: { workspace } }), tools: builtinTools() });
  const goal = mind.addGoal({ description: 'read my notes' });
  const tool = (name: string, input: unknown): Promise<ToolOutput> => Promise.resolve().then(() => runTool({ goalId: goal.id, tool: name, input } as Decision, contextFor(mind, goal)));
  for (let i = 0; i < 3; i++) await tool('file_io', { op: 'read', path: 'notes.txt' });
  t.is(mind.library.size, 1);
  const found = await tool('library_search', { query: 'Phobos moon' });
  t.deepEqual((found.data as { text: string }[]).map((p) => p.text), ['Phobos is a moon of Mars']);
  await writeFile(join(workspace, 'notes.txt'), 'Deimos is a moon of Mars.');
  await tool('file_io', { op: 'read', path: 'notes.txt' });
  t.is(mind.library.size, 2, 'the changed file is a new document');
  const first = await tool('content_ingest', { text: 'Io is a moon.', source: 'paper' });
  const again = await tool('content_ingest', { text: 'Io is a moon.', source: 'paper' });
  t.is(mind.library.size, 3);
  t.is((again.data as { document: string }).document, (first.data as { document: string }).document, 'the same text from the same source is the same document');
});

test('the library keeps the newest documentsKept documents: older ones leave searches and the snapshot at the next pass, and a rollback does not bring them back', (t) => {
  const mind = new Mind({ config: MindConfig.parse({ documentsKept: 2 }) });
  const add = (n: number): string => mind.library.add({ id: `document-${n}`, source: `paper ${n}`, text: `Moon${n} orbits planet${n}.`, at: n });
  for (const n of [1, 2, 3]) add(n);
  t.is(mind.library.size, 3, 'nothing is retired during the pass');
  mind.checkpoint();
  t.deepEqual(mind.library.all().map((d) => d.id), ['document-2', 'document-3']);
  t.deepEqual(mind.library.search('moon1 planet1'), [], 'the retired document is not searched');
  t.is(mind.library.search('moon3 planet3')[0]?.documentId, 'document-3');
  add(4);
  mind.rollback();
  t.deepEqual(mind.library.all().map((d) => d.id), ['document-2', 'document-3'], 'a rollback undoes the pass, not the retirement');
  t.deepEqual((Mind.fromJSON(JSON.parse(JSON.stringify(mind.toJSON()))).toJSON().extensions.library as { id: string }[]).map((d) => d.id), ['document-2', 'document-3']);
});

test('documentsKept: a negative or fractional value is a config error naming the key', (t) => {
  for (const bad of [-1, 2.5]) t.throws(() => new Mind({ config: { ...MindConfig.parse({}), documentsKept: bad } }), { message: /config\.documentsKept/ });
});
