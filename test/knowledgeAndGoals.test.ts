import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { knowledgeAndGoals } from '../streams/program.js';

test('knowledgeAndGoals reads the files, then the goals', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ooda-kg-')), 'facts.ndjson');
  writeFileSync(file, '{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}\n');
  const stimuli = await lastValueFrom(knowledgeAndGoals([file], ['Find moons of Mars']).pipe(toArray()));
  t.deepEqual(stimuli, [
    { source: file, line: 1, text: '{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}' },
    { source: 'cli', value: { type: 'goal', description: 'Find moons of Mars' } },
  ]);
});

test('knowledgeAndGoals refuses files that are no array of file names, naming it, instead of "files.map is not a function"', (t) => {
  t.throws(() => knowledgeAndGoals('facts.ndjson' as never, []), { instanceOf: TypeError, message: 'knowledgeAndGoals: expected an array of NDJSON file names, got "facts.ndjson"' });
  t.throws(() => knowledgeAndGoals(undefined as never, ['x']), { instanceOf: TypeError, message: 'knowledgeAndGoals: expected an array of NDJSON file names, got undefined' });
  t.throws(() => knowledgeAndGoals([0] as never, []), { instanceOf: TypeError, message: 'knowledgeAndGoals: files[0] is not a file name (got 0)' });
  t.throws(() => knowledgeAndGoals(['a.ndjson', ''], []), { instanceOf: TypeError, message: 'knowledgeAndGoals: files[1] is not a file name (got "")' });
});
