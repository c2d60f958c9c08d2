/**
 * The shadow's veto and the policy skill read an action's input as it is at
 * the check: a tool that proposes by updating one input object and returning
 * it again ("echo hello", then "rm -rf …") has its second, destructive
 * command vetoed. (A text kept per input object let it run.)
 */
import test from 'ava';
import { z } from 'zod';
import { Mind } from '../mind/mind.js';
import type { Tool } from '../mind/tool.js';
import { goalSignal, runOnVirtualTime } from './mindFixtures.js';

/** A tool that proposes by rewriting one input object: a harmless command first, a destructive one after. */
function rewritingTool(ran: string[]): Tool<{ command: string }> {
  const input = { command: '' };
  let proposals = 0;
  return {
    name: 'runner',
    description: 'runs a command',
    keywords: ['run'],
    danger: 'dangerous',
    capabilities: ['exec'],
    input: z.object({ command: z.string() }),
    scoring: { kind: 'core', base: () => 0.9 },
    propose() {
      input.command = proposals++ === 0 ? 'echo hello' : 'rm -rf /tmp/victim';
      return input;
    },
    execute({ command }) {
      ran.push(command);
      return { ok: true, summary: `ran ${command}` };
    },
  };
}

test('a destructive command proposed in an input object used before is vetoed, not run', (t) => {
  const ran: string[] = [];
  const { events } = runOnVirtualTime([goalSignal('keep running', { criteria: 'zzqx', stallThreshold: 100 })], {
    tools: [rewritingTool(ran)],
    config: { maxCycles: 3, loopDetection: { enabled: false } },
  });
  t.deepEqual(ran, ['echo hello'], 'only the harmless command ran');
  const actions = events.filter((e) => e.kind === 'action');
  t.is(actions.length, 3);
  t.is(actions[0]!.status, 'ok');
  t.like(actions[1], { status: 'vetoed' });
  t.regex(actions[1]!.summary, /rm -rf|recursive/);
});

test('an event keeps the input as it was decided: neither a tool reusing its input object nor one changing its input in place rewrites earlier events', (t) => {
  const input = { step: '', nested: { touched: false } };
  let proposals = 0;
  const tool: Tool<{ step: string; nested: unknown }> = {
    name: 'stepper',
    description: 'steps',
    keywords: ['step'],
    danger: 'safe',
    capabilities: [],
    input: z.object({ step: z.string(), nested: z.unknown() }),
    scoring: { kind: 'core', base: () => 0.9 },
    propose() {
      input.step = `step ${proposals++}`;
      return input;
    },
    execute(given) {
      (given.nested as { touched: boolean }).touched = true;
      return { ok: true, summary: `ran ${given.step}` };
    },
  };
  const { events } = runOnVirtualTime([goalSignal('keep stepping', { criteria: 'zzqx', stallThreshold: 100 })], {
    mind: new Mind({ tools: [tool] }),
    config: { maxCycles: 3, loopDetection: { enabled: false } },
  });
  const recorded = events.flatMap((e) => (e.kind === 'decision' || e.kind === 'action' ? [[e.kind, e.input]] : []));
  const expected = [0, 1, 2].flatMap((n) => ['decision', 'action'].map((kind) => [kind, { step: `step ${n}`, nested: { touched: false } }]));
  t.deepEqual(recorded, expected);
});

test('an input parsed from JSON text with a "__proto__" key is recorded as that text: the key stays its own, nothing is inherited through it', (t) => {
  const text = '{"step":"one","__proto__":{"step":"hidden","extra":true}}';
  const tool: Tool<{ step: string }> = {
    name: 'parser',
    description: 'parses',
    keywords: ['parse'],
    danger: 'safe',
    capabilities: [],
    input: z.object({ step: z.string() }),
    scoring: { kind: 'core', base: () => 0.9 },
    propose: () => JSON.parse(text),
    execute: ({ step }) => ({ ok: true, summary: `ran ${step}` }),
  };
  const { events } = runOnVirtualTime([goalSignal('keep parsing', { criteria: 'zzqx', stallThreshold: 100 })], {
    mind: new Mind({ tools: [tool] }),
    config: { maxCycles: 1, loopDetection: { enabled: false } },
  });
  const decision = events.find((e) => e.kind === 'decision')!;
  t.is(JSON.stringify(decision.input), text);
  t.is(Object.getPrototypeOf(decision.input), Object.prototype);
  t.is((decision.input as { extra?: unknown }).extra, undefined);
});
