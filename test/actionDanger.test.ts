import test from 'ava';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import { Mind } from '../mind/mind.js';
import { policySkill } from '../mind/policySkill.js';
import { Psyche } from '../mind/psyche.js';
import { ToolBug, type Danger, type Tool } from '../mind/tool.js';
import type { Skill } from '../mind/skills.js';
import { fileIo } from '../mind/tools/fileIo.js';
import type { AgentEvent } from '../streams/events.js';
import { agentEvents, createTestAgent, flushSettled, goalStimulus } from '../streams/testing.js';

const NO_DANGER = { name: 'no-danger', kind: 'veto', danger: 'dangerous', reason: 'nothing dangerous runs unattended' } as const;

/** A tool whose danger depends on its input's `level`. */
function levelled(dangerOf: (input: unknown) => Danger): Tool {
  return {
    name: 'levelled',
    description: 'a tool whose danger depends on its input',
    keywords: ['level'],
    danger: 'safe',
    dangerOf,
    capabilities: [],
    input: z.unknown(),
    scoring: { kind: 'core', base: () => 0.5 },
    propose: () => ({}),
    execute: () => ({ ok: true, summary: 'ran' }),
  };
}

const policyVerdict = (mind: Mind, tool: string, input: unknown) => {
  const action = { goalId: 'goal-1', tool, input };
  return policySkill.verify!(action, { mind, goal: mind.addGoal({ description: 'level things' }), signal: { type: 'tick', depth: 0 }, action, now: () => 0 });
};

test('file_io is cautious to read and list, dangerous to write (seed 001\u2019s "Cautious/Danger"): a shadow veto on dangerous actions stops its writes only', (t) => {
  const mind = new Mind({ tools: [fileIo] });
  const psyche = Psyche.attach(mind, { shadow: [NO_DANGER] });
  t.is(psyche.veto(fileIo, { op: 'write', path: 'notes.txt', content: 'x' }, 'goal-1')?.name, 'no-danger');
  t.is(psyche.veto(fileIo, { op: 'read', path: 'notes.txt' }, 'goal-1'), undefined);
  t.is(psyche.veto(fileIo, { op: 'list', path: '.' }, 'goal-1'), undefined);
});

test('the policy skill rejects an action its tool calls critical for that input, and one whose dangerOf fails; a dangerOf that fails in a shadow check is a bug of that tool', (t) => {
  const mind = new Mind({ tools: [levelled((input) => ((input as { level?: Danger }).level ?? 'safe'))] });
  t.like(policyVerdict(mind, 'levelled', { level: 'critical' }), { verdict: 'reject', reason: 'levelled is a critical-danger tool with this input' });
  t.like(policyVerdict(mind, 'levelled', { level: 'cautious' }), { verdict: 'approve' });

  const broken = new Mind({ tools: [levelled(() => 'extreme' as Danger)] });
  t.like(policyVerdict(broken, 'levelled', {}), { verdict: 'reject', reason: 'levelled could not say how dangerous this input is: dangerOf returned "extreme": expected one of safe, cautious, dangerous, critical' });
  const throwing = new Mind({ tools: [levelled(() => { throw new Error('cannot judge'); })] });
  t.like(policyVerdict(throwing, 'levelled', {}), { verdict: 'reject', reason: 'levelled could not say how dangerous this input is: dangerOf threw: cannot judge' });
  const psyche = Psyche.attach(broken, { shadow: [NO_DANGER] });
  const thrown = t.throws(() => psyche.veto(broken.tools.get('levelled')!, {}, 'goal-1'), { instanceOf: ToolBug });
  t.is(thrown?.tool, 'levelled');
});

test('a dangerOf that is not a function is refused when the tool is registered, naming it', (t) => {
  const tool = { ...levelled(() => 'safe'), dangerOf: 'dangerous' } as unknown as Tool;
  t.throws(() => new Mind({ tools: [tool] }), { message: 'tool "levelled": dangerOf: expected a function, got "dangerous"' });
});

test('the shadow judges the input that runs: a skill that turns a file_io read into a write is vetoed by a veto of dangerous actions, and nothing is written', async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'danger-'));
  const toWrite: Skill = {
    name: 'make-it-a-write',
    priority: 50,
    trigger: ({ action }) => action.tool === 'file_io',
    verify: () => ({ verdict: 'replace', input: { op: 'write', path: 'written.txt', content: 'x' }, reason: 'write instead' }),
  };
  const scheduler = new VirtualTimeScheduler();
  const agent = createTestAgent(scheduler, { skills: [toWrite], psyche: { shadow: [NO_DANGER] }, config: { maxCycles: 1, tools: { workspace } } });
  const events: AgentEvent[] = [];
  agentEvents(agent, { inputs: [from([goalStimulus('read the file notes.txt from the workspace folder')])] }).subscribe((e) => events.push(e));
  await flushSettled(scheduler);
  t.like(events.find((e) => e.kind === 'action'), { tool: 'file_io', status: 'vetoed', summary: 'vetoed: shadow veto "no-danger": nothing dangerous runs unattended (on the input skill "make-it-a-write" gave)' });
  t.false(existsSync(join(workspace, 'written.txt')));
});
