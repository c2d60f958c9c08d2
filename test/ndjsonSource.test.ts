import test from 'ava';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { lastValueFrom, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { fromNdjson, type NdjsonOptions } from '../sources/ndjson.js';

const collect = (chunks: (string | Buffer)[], maxLineBytes?: number) =>
  lastValueFrom(fromNdjson(Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))), maxLineBytes ? { maxLineBytes } : {}).pipe(toArray()));

test('lines carry 1-based line numbers; CRLF is stripped; blank lines are skipped but counted; a last line without newline is emitted', async (t) => {
  const out = await collect(['{"a":1}\r\n\n  \n{"b":', '2}\n{"c":3}']);
  t.deepEqual(out, [
    { source: 'stdin', line: 1, text: '{"a":1}' },
    { source: 'stdin', line: 4, text: '{"b":2}' },
    { source: 'stdin', line: 5, text: '{"c":3}' },
  ]);
});

test('a line split inside a multi-byte character across chunks is decoded intact', async (t) => {
  const bytes = Buffer.from('{"t":"héllo ☀"}\n');
  const cut = bytes.indexOf(0xe2) + 1;
  t.deepEqual(await collect([bytes.subarray(0, cut), bytes.subarray(cut)]), [{ source: 'stdin', line: 1, text: '{"t":"héllo ☀"}' }]);
});

test('a line that is not valid UTF-8 is rejected, naming its line, wherever the chunks split; valid lines around it (a literal U+FFFD among them) are read', async (t) => {
  const bad = (line: number, text: string) => ({ source: 'stdin', line, problem: `line ${line} is not valid UTF-8 (U+FFFD marks its bad bytes in the preview)`, text });
  const bytes = Buffer.concat([
    Buffer.from('{"a":"é"}\n{"b":"'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}\n{"c":"\u{FFFD} ☀"}\n{"d":"x'),
    Buffer.from([0xe2, 0x82]),
    Buffer.from('"}\n{"e":1}\n'),
    Buffer.from([0xf0, 0x9f]),
  ]);
  const expected = [
    { source: 'stdin', line: 1, text: '{"a":"é"}' },
    bad(2, '{"b":"\u{FFFD}\u{FFFD}"}'),
    { source: 'stdin', line: 3, text: '{"c":"\u{FFFD} ☀"}' },
    bad(4, '{"d":"x\u{FFFD}"}'),
    { source: 'stdin', line: 5, text: '{"e":1}' },
    bad(6, '\u{FFFD}'),
  ];
  t.deepEqual(await collect([bytes]), expected);
  // Every cut, inside characters and between the bytes of a bad sequence included.
  for (let cut = 1; cut < bytes.length; cut++) t.deepEqual(await collect([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at ${cut}`);
  t.deepEqual(await collect([...bytes].map((b) => Buffer.from([b]))), expected, 'one byte per chunk');
});

test('a line longer than maxLineBytes is rejected as one problem and the next line is read', async (t) => {
  const long = 'x'.repeat(5000);
  const out = await collect(['{"ok":1}\n', long.slice(0, 2000), long.slice(2000), '\n{"ok":2}\n'], 1024);
  t.deepEqual(out, [
    { source: 'stdin', line: 1, text: '{"ok":1}' },
    { source: 'stdin', line: 2, problem: 'line 2 is longer than 1024 bytes' },
    { source: 'stdin', line: 3, text: '{"ok":2}' },
  ]);
});

test('an oversized line is reported as soon as it passes the limit, not at its end, which may never come', async (t) => {
  const input = new PassThrough();
  const seen: unknown[] = [];
  const done = new Promise<void>((resolve) => fromNdjson(input, { maxLineBytes: 1024 }).subscribe({ next: (s) => seen.push(s), complete: resolve }));
  input.write('{"ok":1}\n');
  for (let i = 0; i < 4; i++) input.write('x'.repeat(600));
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(seen, [
    { source: 'stdin', line: 1, text: '{"ok":1}' },
    { source: 'stdin', line: 2, problem: 'line 2 is longer than 1024 bytes' },
  ]);
  input.end('more of it\n{"ok":3}\n');
  await done;
  t.deepEqual(seen.slice(2), [{ source: 'stdin', line: 3, text: '{"ok":3}' }], 'the rest of the line is dropped, and it is reported once');
});

test('an oversized line of multi-byte characters is reported as soon as its bytes pass the limit, not once its characters do', async (t) => {
  const input = new PassThrough();
  const seen: unknown[] = [];
  const done = new Promise<void>((resolve) => fromNdjson(input, { maxLineBytes: 1024 }).subscribe({ next: (s) => seen.push(s), complete: resolve }));
  input.write('{"ok":1}\n');
  // 600 characters, 1800 bytes, and the line goes on.
  for (let i = 0; i < 3; i++) input.write('日'.repeat(200));
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(seen, [
    { source: 'stdin', line: 1, text: '{"ok":1}' },
    { source: 'stdin', line: 2, problem: 'line 2 is longer than 1024 bytes' },
  ]);
  input.end('日\n{"ok":3}\n');
  await done;
  t.deepEqual(seen.slice(2), [{ source: 'stdin', line: 3, text: '{"ok":3}' }]);
});

test('maxLineBytes counts UTF-8 bytes, not characters, whether the line comes whole or in pieces', async (t) => {
  const wide = `"${'é'.repeat(600)}"`; // 602 characters, 1202 bytes
  const fits = `"${'é'.repeat(499)}"\r`; // 1000 bytes and a CR
  const expected = [
    { source: 'stdin', line: 1, problem: 'line 1 is longer than 1000 bytes' },
    { source: 'stdin', line: 2, text: fits.slice(0, -1) },
  ];
  t.deepEqual(await collect([`${wide}\n${fits}\n`], 1000), expected);
  const bytes = Buffer.from(`${wide}\n${fits}\n`);
  t.deepEqual(await collect([bytes.subarray(0, 301), bytes.subarray(301, 1500), bytes.subarray(1500)], 1000), expected);
});

test.serial('an oversized line is not buffered whole: retained memory stays bounded while 8 MiB of one line streams in', async (t) => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run ava with --expose-gc (see package.json)');
  const input = new PassThrough();
  const seen: unknown[] = [];
  const done = new Promise<void>((resolve) => fromNdjson(input, { maxLineBytes: 1024 * 1024 }).subscribe({ next: (s) => seen.push(s), complete: resolve }));
  // Array buffers are freed by a background sweeper after GC: collect and settle a few times before reading.
  // The line may be held as bytes or as text: both count.
  const settled = async () => {
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { arrayBuffers, heapUsed } = process.memoryUsage();
    return arrayBuffers + heapUsed;
  };
  const before = await settled();
  for (let i = 0; i < 128; i++) {
    input.write(Buffer.alloc(64 * 1024, 0x61)); // a fresh chunk each time: 8 MiB in one line
    await new Promise((resolve) => setImmediate(resolve));
  }
  const retained = (await settled()) - before;
  input.end('\n{"after":true}\n');
  await done;
  t.true(retained < 2 * 1024 * 1024, `retained ${retained} bytes while an 8 MiB line streamed in`);
  t.deepEqual(seen, [
    { source: 'stdin', line: 1, problem: 'line 1 is longer than 1048576 bytes' },
    { source: 'stdin', line: 2, text: '{"after":true}' },
  ]);
});

test('a bad option is refused, naming it: a maxLineBytes that is not a number would let a line of any size be buffered whole', (t) => {
  const refused = (options: Record<string, unknown>, message: string) => t.throws(() => fromNdjson(new PassThrough(), options as NdjsonOptions), { message });
  refused({ maxLineBytes: NaN }, 'fromNdjson maxLineBytes: expected a whole number of bytes ≥ 1, got NaN');
  refused({ maxLineBytes: '1MiB' }, 'fromNdjson maxLineBytes: expected a whole number of bytes ≥ 1, got "1MiB"');
  refused({ maxLineBytes: 0 }, 'fromNdjson maxLineBytes: expected a whole number of bytes ≥ 1, got 0');
  refused({ source: '' }, 'fromNdjson source: expected a name for the input (stdin, a file), got ""');
  refused({ source: 5 }, 'fromNdjson source: expected a name for the input (stdin, a file), got 5');
  t.notThrows(() => fromNdjson(new PassThrough(), { maxLineBytes: 1, source: 'facts.ndjson' }));
});

test('a readable that is no stream (a file name) is refused at once, naming it, instead of failing when subscribed with "readable.on is not a function"', (t) => {
  for (const [readable, got] of [['facts.ndjson', '"facts.ndjson"'], [undefined, 'undefined'], [5, '5']] as const) {
    t.throws(() => fromNdjson(readable as never), { instanceOf: TypeError, message: `fromNdjson: expected a readable stream (process.stdin, createReadStream(file)), got ${got}` });
  }
});

test('an oversized last line without a newline is still reported', async (t) => {
  t.deepEqual(await collect(['{"a":1}\n', 'y'.repeat(3000)], 1000), [
    { source: 'stdin', line: 1, text: '{"a":1}' },
    { source: 'stdin', line: 2, problem: 'line 2 is longer than 1000 bytes' },
  ]);
});

test('a read error ends the stream with a problem, not an error', async (t) => {
  const input = new PassThrough();
  const out = lastValueFrom(fromNdjson(input, { source: 'pipe' }).pipe(toArray()));
  input.write('{"a":1}\n');
  input.destroy(new Error('EIO: i/o error'));
  t.deepEqual(await out, [
    { source: 'pipe', line: 1, text: '{"a":1}' },
    { source: 'pipe', line: 2, problem: 'read error: EIO: i/o error' },
  ]);
});

test('the doc comment marble holds: a line split across chunks is one line, and a last line without newline comes with the end', (t) => {
  const doc = readFileSync(new URL('../sources/ndjson.ts', import.meta.url), 'utf8');
  const marble = /fromNdjson\(\): +(\S+)/.exec(doc)?.[1];
  t.is(marble, '--a-------b----------(d|)');
  new TestScheduler((actual, expected) => t.deepEqual(actual, expected)).run(({ cold, expectObservable }) => {
    const readable = Object.assign(new EventEmitter(), { pause: () => undefined }) as unknown as Readable;
    cold('--x-------y----------|', { x: 'a\nb', y: 'c\n\nd' }).subscribe({ next: (chunk) => readable.emit('data', chunk), complete: () => readable.emit('end') });
    expectObservable(fromNdjson(readable)).toBe(marble!, {
      a: { source: 'stdin', line: 1, text: 'a' },
      b: { source: 'stdin', line: 2, text: 'bc' },
      d: { source: 'stdin', line: 4, text: 'd' },
    });
  });
});
