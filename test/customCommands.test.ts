import test from 'ava';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { runCommand } from '../streams/localAgent.js';
import { agentEvents, createTestAgent, createTestScheduler, stimulus } from '../streams/testing.js';

/** Lines as stdin delivers them, through an agent with a custom `hello` command. */
function run(t: { deepEqual: (a: unknown, b: unknown) => void }, lines: string[]): AgentEvent[] {
  const scheduler = createTestScheduler((a, b) => t.deepEqual(a, b));
  const events: AgentEvent[] = [];
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { commands: [['hello', () => 'hello back']] });
    const values = Object.fromEntries(lines.map((text, i) => [String.fromCharCode(97 + i), { source: 'stdin', line: i + 1, text }]));
    const input$ = cold(`${Object.keys(values).join('')}|`, values);
    agentEvents(agent, { inputs: [input$] }).subscribe((e) => events.push(e));
  });
  return events;
}

test('a custom command sent from outside reaches its handler', (t) => {
  const events = run(t, ['{"type":"command","command":"hello"}', '{"type":"command","command":"status"}']);
  t.is(events.filter((e) => e.kind === 'rejected').length, 0);
  t.like(events.find((e) => e.kind === 'command'), { command: 'hello', result: 'hello back' });
  t.like(events.filter((e) => e.kind === 'command')[1], { command: 'status' });
});

test('a command the agent has no handler for is rejected, naming the accepted ones, and the next line is read', (t) => {
  const events = run(t, ['{"type":"command","command":"nope"}', '{"type":"command","command":"hello"}']);
  const rejected = events.find((e) => e.kind === 'rejected');
  t.like(rejected, { source: 'stdin', line: 1, preview: '{"type":"command","command":"nope"}' });
  t.is(
    (rejected as { reason: string }).reason,
    'invalid command signal: command: Invalid option "nope": expected one of "pause"|"resume"|"status"|"consolidate"|"reflect"|"plan"|"stop"|"hello"',
  );
  t.like(events.find((e) => e.kind === 'command'), { command: 'hello', result: 'hello back' });
});

test('a structured command value is checked the same way: without a store, save is not one of the agent’s commands', (t) => {
  const scheduler = createTestScheduler((a, b) => t.deepEqual(a, b));
  const events: AgentEvent[] = [];
  scheduler.run(({ cold }) => {
    const agent = createTestAgent(scheduler, { commands: [['hello', () => 'hi']] });
    agentEvents(agent, { inputs: [cold('ab|', { a: stimulus({ type: 'command', command: 'hello' }), b: stimulus({ type: 'command', command: 'save' }) })] }).subscribe((e) => events.push(e));
  });
  t.like(events.find((e) => e.kind === 'command'), { command: 'hello', result: 'hi' });
  t.regex((events.find((e) => e.kind === 'rejected') as { reason: string }).reason, /^invalid command signal: command: Invalid option "save": expected one of .*"hello" \(save needs a store: ooda run --db FILE, or Persistence\.agentOptions in code\)$/);
});

test('runCommand runs the agent’s own commands too, and refuses a name it has no handler for, naming the accepted ones', (t) => {
  const agent = createAgent({ commands: [['hello', (runtime) => `hello at cycle ${runtime.mind.cycle}`]], config: { heartbeatMs: 0 } });
  t.like(runCommand(agent, 'hello'), { result: 'hello at cycle 0' });
  t.like(runCommand(agent, 'hello').events.find((e) => e.kind === 'command'), { kind: 'command', command: 'hello', result: 'hello at cycle 0' });
  t.throws(() => runCommand(agent, 'helo'), { message: /^runCommand: invalid command signal: command: Invalid option "helo": expected one of .*"hello"/ });
});
