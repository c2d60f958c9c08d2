/**
 * A number JSON cannot write (NaN, ±Infinity; JSON.parse makes 1e400
 * Infinity) nested in a sensor value is refused naming its path, as one on
 * its own is. Before, `{"x":1e400}` was taken in and became `{"x":null}` in
 * the event, the store and the mind's note, while `1e400` on its own was
 * rejected ("expected a finite number, got Infinity").
 */
import test from 'ava';
import { map } from 'rxjs';
import { sensor } from '../sources/sensor.js';
import { runMarbles } from '../streams/testing.js';
import { events, runCli } from './helpers/cli.js';

test('ooda run: a sensor line holding 1e400 at any depth is rejected naming where; a finite one is taken in as it came', async (t) => {
  const lines = [
    '{"type":"sensor","sensor":"t","value":1e400}',
    '{"type":"sensor","sensor":"t","value":{"x":1e400,"y":-1e400}}',
    '{"type":"sensor","sensor":"t","value":{"a":{"list":[1,-1e400]}}}',
    '{"type":"sensor","sensor":"t","value":{"x":1.5,"list":[1e300]}}',
  ];
  const { code, stdout, stderr } = await runCli(['run', '--no-db', '--heartbeat', '0'], `${lines.join('\n')}\n`);
  t.is(code, 0, stderr);
  const printed = events(stdout);
  t.deepEqual(
    printed.filter((e) => e.kind === 'rejected').map((e) => [e.line, e.reason]),
    [
      [1, 'invalid sensor signal: value: expected a finite number, got Infinity'],
      [2, 'invalid sensor signal: value.x: expected a finite number, got Infinity'],
      [3, 'invalid sensor signal: value.a.list.1: expected a finite number, got -Infinity'],
    ],
  );
  t.deepEqual(
    printed.filter((e) => e.kind === 'sensor').map((e) => e.value),
    [{ x: 1.5, list: [1e300] }],
  );
});

test('sensor: a read returning an object that holds NaN or Infinity becomes an error value naming where, not a reading with null in its place', (t) => {
  const readings = [{ a: { b: [1, Number.NaN] } }, { a: { b: [1, 2] } }];
  runMarbles(t.deepEqual.bind(t), ({ expectObservable }, scheduler) => {
    let n = 0;
    const values = sensor('odd', () => readings[n++]!, 10, scheduler).pipe(map((s) => s.value));
    expectObservable(values, '^ 25ms !').toBe('10ms a 9ms b', {
      a: { error: 'read returned an object JSON cannot write as it is: value.a.b.1: expected a finite number, got NaN' },
      b: { a: { b: [1, 2] } },
    });
  });
});
