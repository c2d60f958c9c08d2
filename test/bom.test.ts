/**
 * A UTF-8 byte-order mark at the very start of input (a --kg file, stdin, a
 * config file) is skipped, not rejected as "not JSON"; elsewhere it is data,
 * and a line it starts is rejected naming it.
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { lastValueFrom, toArray } from 'rxjs';
import { fromNdjson } from '../sources/ndjson.js';
import { events, runCli } from './helpers/cli.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const fact = (object: string) => JSON.stringify({ type: 'fact', subject: 'Mars', predicate: 'has moon', object });

test('fromNdjson strips a BOM at the start of the stream, even split across chunks, and only there', async (t) => {
  const bytes = Buffer.concat([BOM, Buffer.from('{"a":1}\n'), BOM, Buffer.from('{"b":2}\n')]);
  const out = await lastValueFrom(fromNdjson(Readable.from([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)])).pipe(toArray()));
  t.deepEqual(out, [
    { source: 'stdin', line: 1, text: '{"a":1}' },
    { source: 'stdin', line: 2, text: '\uFEFF{"b":2}' },
  ]);
});

test('the BOM stripped from the first line does not count toward maxLineBytes, however the line is split into chunks', async (t) => {
  const line = Buffer.from('0123456789'); // exactly maxLineBytes
  const lines = async (chunks: Buffer[]) => lastValueFrom(fromNdjson(Readable.from(chunks), { maxLineBytes: 10 }).pipe(toArray()));
  const expected = [{ source: 'stdin', line: 1, text: '0123456789' }];
  t.deepEqual(await lines([Buffer.concat([BOM, line, Buffer.from('\n')])]), expected);
  // Its bytes all in, its newline still to come: the BOM once counted, and the line was said to be too long.
  t.deepEqual(await lines([Buffer.concat([BOM, line]), Buffer.from('\n')]), expected);
  t.deepEqual(await lines([BOM.subarray(0, 2), Buffer.concat([BOM.subarray(2), line]), Buffer.from('\n')]), expected);
  // One byte more is too long either way.
  t.deepEqual(await lines([Buffer.concat([BOM, line, Buffer.from('x')]), Buffer.from('\n')]), [{ source: 'stdin', line: 1, problem: 'line 1 is longer than 10 bytes' }]);
});

test('a BOM that starts a later line (files joined with cat) is rejected naming the mark, which the message of JSON.parse shows as nothing', async (t) => {
  const { code, stdout, stderr } = await runCli(['run', '--no-db', '--heartbeat', '0', '--max-cycles', '0'], Buffer.concat([BOM, Buffer.from(`${fact('Phobos')}\n`), BOM, Buffer.from(`${fact('Deimos')}\n`)]).toString());
  t.is(code, 0, stderr);
  const all = events(stdout);
  t.deepEqual(all.filter((e) => e.kind === 'rejected').map((e) => [e.line, e.reason]), [
    [2, 'not JSON: the line starts with a byte-order mark (U+FEFF), which is skipped only at the very start of the input (a file saved with one, joined after another?)'],
  ]);
  t.deepEqual(all.filter((e) => e.kind === 'fact').map((e) => e.object), ['Phobos']);
});

test('ooda run: a BOM-prefixed --kg file, stdin and config file are read from their first line', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-bom-'));
  const kg = join(dir, 'kg.ndjson');
  writeFileSync(kg, Buffer.concat([BOM, Buffer.from(`${fact('Phobos')}\n`)]));
  const config = join(dir, 'c.json');
  writeFileSync(config, Buffer.concat([BOM, Buffer.from('{"maxCycles": 0}')]));
  const { code, stdout, stderr } = await runCli(['run', '--no-db', '--heartbeat', '0', '--kg', kg, '--config', config], `\uFEFF${fact('Deimos')}\n`);
  t.is(code, 0, stderr);
  const all = events(stdout);
  t.deepEqual(all.filter((e) => e.kind === 'rejected'), []);
  t.deepEqual(all.filter((e) => e.kind === 'fact').map((e) => e.object), ['Phobos', 'Deimos']);
});
