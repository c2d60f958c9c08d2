/**
 * A sensor value nested deeper than the store can hold (SQLite's JSON
 * functions refuse more than 1000 levels) is refused where it enters, naming
 * the line and the limit; before, one such line on stdin failed the store
 * and ended the run with exit 1, its rows unwritten.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { map } from 'rxjs';
import { sensor } from '../sources/sensor.js';
import { runMarbles } from '../streams/testing.js';
import { events, runCli } from './helpers/cli.js';

/** An object nesting `levels` objects: `{"a":{"a":…1}}`. */
const nested = (levels: number): Record<string, unknown> => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as Record<string, unknown>;

const TOO_DEEP = 'nested more than 100 levels deep (objects and arrays within one another): the store cannot hold it';

test('ooda run: a sensor line nested 1000 levels deep is rejected naming its line; the lines after it are taken in and the store holds every event', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-nested-')), 'run.db');
  const lines = [
    { type: 'sensor', sensor: 'deep', value: nested(1000) },
    { type: 'sensor', sensor: 'fine', value: nested(100) },
    { type: 'goal', description: 'Find moons of Mars' },
  ].map((line) => JSON.stringify(line));
  const { code, stdout, stderr } = await runCli(['run', '--db', db, '--max-cycles', '1', '--heartbeat', '0'], `${lines.join('\n')}\n`);
  t.is(code, 0, stderr);
  const printed = events(stdout);
  t.like(printed.find((e) => e.kind === 'rejected'), { line: 1, reason: `invalid sensor signal: value: ${TOO_DEEP}` });
  t.deepEqual(printed.filter((e) => e.kind === 'perceived').map((e) => e.line), [2, 3]);
  t.false(printed.some((e) => e.kind === 'error'), stdout);
  const file = new Database(db, { readonly: true });
  t.teardown(() => file.close());
  t.is((file.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n, printed.length, 'every printed event is stored');
  t.like(file.prepare('SELECT status, reason FROM sessions').get(), { status: 'ended', reason: 'max cycles reached' });
});

test('sensor: a read that returns an object nested more than 100 levels deep becomes an error value saying so', (t) => {
  const readings = [nested(101), nested(100)];
  runMarbles(t.deepEqual.bind(t), ({ expectObservable }, scheduler) => {
    let n = 0;
    const values = sensor('deep', () => readings[n++]!, 10, scheduler).pipe(map((s) => s.value));
    expectObservable(values, '^ 25ms !').toBe('10ms a 9ms b', { a: { error: `read returned an object ${TOO_DEEP}` }, b: nested(100) });
  });
});
