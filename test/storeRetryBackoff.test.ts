/**
 * A failing store's retries back off, and the log says how far apart they
 * come at most: that bound must hold whatever the flush window is.
 */
import test from 'ava';
import { VirtualTimeScheduler } from 'rxjs';
import { SqliteStore } from '../sinks/sqliteStore.js';
import { toSqlite } from '../sinks/toSqlite.js';

for (const flushMs of [300, 5000]) {
  test(`with flushMs ${flushMs}, failing writes are retried at most as far apart as the log says`, async (t) => {
    const store = await SqliteStore.open(':memory:');
    t.teardown(() => store.close());
    const scheduler = new VirtualTimeScheduler();
    const attemptedAt: number[] = [];
    const attempts: Promise<void>[] = [];
    store.write = () => {
      attemptedAt.push(scheduler.now());
      const attempt = Promise.reject(Object.assign(new Error('SQLITE_IOERR: disk I/O error'), { code: 'SQLITE_IOERR' }));
      attempts.push(attempt.catch(() => undefined));
      return attempt;
    };
    const lines: string[] = [];
    const sink = toSqlite(store, { flushMs, scheduler, log: (line) => lines.push(line) });
    sink.insert('signals', { id: 1, session: 's', at: 1, type: 'fact', body: {} });
    // One scheduled action (a flush window) at a time, each write's failure awaited.
    for (let step = 0; step < 60 && attemptedAt.length < 8; step++) {
      const next = scheduler.actions[0];
      if (!next) break;
      scheduler.maxFrames = next.delay;
      scheduler.flush();
      await Promise.all(attempts);
    }
    t.is(attemptedAt.length, 8);
    const said = /retrying at least every ([\d.]+) s/.exec(lines[0] ?? '');
    t.truthy(said, lines[0]);
    const gaps = attemptedAt.slice(1).map((at, i) => at - attemptedAt[i]!);
    t.true(Math.max(...gaps) <= Number(said![1]) * 1000, `log: ${lines[0]}; gaps: ${gaps.join(', ')}`);
    t.is(sink.pending, 1, 'nothing dropped');
  });
}
