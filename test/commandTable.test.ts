import test from 'ava';
import { from, toArray, VirtualTimeScheduler } from 'rxjs';
import type { CommandHandler } from '../streams/runtime.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, stimulus } from '../streams/testing.js';

/** Sends `name` as a command signal to an agent that has `handler` for it. */
function send(name: string, handler: CommandHandler): AgentEvent[] {
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { commands: [[name, handler]] });
  let events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([stimulus({ type: 'command', command: name })])] })
    .pipe(toArray())
    .subscribe((all) => (events = all));
  scheduler.flush();
  return events;
}

test('a command whose handler throws is an error naming the command', (t) => {
  const events = send('boom', () => {
    throw new Error('kaboom');
  });
  t.like(
    events.find((e) => e.kind === 'error'),
    { severity: 'critical', message: 'command "boom" failed: kaboom', signalType: 'command' },
  );
});

test('a command result that is not a string is reported as its JSON, undefined as an empty result', (t) => {
  const result = (value: unknown) => (send('report', () => value as string).find((e) => e.kind === 'command') as { result: unknown }).result;
  t.is(result({ done: true, count: 2 }), '{"done":true,"count":2}');
  t.is(result(42), '42');
  t.is(result(null), 'null');
  t.is(result(undefined), '');
  t.is(result('as is'), 'as is');
});

test('an async command handler is an error naming the command, not a result of "[object Promise]"', (t) => {
  const events = send('later', (async () => 'done') as unknown as CommandHandler);
  t.is(events.filter((e) => e.kind === 'command').length, 0);
  t.like(events.find((e) => e.kind === 'error'), {
    message: 'command "later" returned a Promise: it must return the line to report synchronously, not from an async function',
  });
});

test('a command name no command signal could carry is refused when it is registered', (t) => {
  const scheduler = new VirtualTimeScheduler();
  for (const [name, shown] of [
    ['', '""'],
    [' hello', '" hello"'],
    ['hello\n', '"hello\\n"'],
  ]) {
    t.throws(() => createTestAgent(scheduler, { commands: [[name!, () => 'hi']] }), {
      message: `command name ${shown} cannot be registered: a command signal names its command by a non-empty string without surrounding whitespace, so none could call it`,
    });
  }
  t.notThrows(() => createTestAgent(scheduler, { commands: [['hello-world.2', () => 'hi']] }));
});
