import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, of, toArray } from 'rxjs';
import { Mind } from '../mind/mind.js';
import { DESTRUCTIVE_PATTERNS, policySkill } from '../mind/policySkill.js';
import { createAgent } from '../streams/createAgent.js';
import type { AgentEvent, EventOf } from '../streams/events.js';
import { goalStimulus } from '../streams/testing.js';

/** One cycle of an agent with shell_exec enabled on `goal`; every event. */
async function runShellGoal(goal: string): Promise<AgentEvent[]> {
  const agent = createAgent({ session: 't', config: { heartbeatMs: 0, maxCycles: 1, tools: { shellExec: true } } });
  const events$ = agent.run({ inputs: [of(goalStimulus(goal))] });
  const all = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  return all;
}

test('the policy skill rejects a forced or recursive rm whatever the order and spelling of its options, and the folder survives', async (t) => {
  // A fixed last segment: a random one ending in "rm" (ooda-victim-x1FiRm) would make "…rm -rf", which the shadow vetoes before the policy skill sees it.
  const victim = join(mkdtempSync(join(tmpdir(), 'ooda-victim-')), 'target');
  mkdirSync(join(victim, 'sub'), { recursive: true });
  for (const line of [`rm -v -rf ${victim}`, `rm --recursive --force ${victim}`, `rm ${victim} -rf`, `rm -i -r ${victim}`]) {
    const events = await runShellGoal(`Run the shell command \`${line}\` and execute it`);
    const action = events.find((e): e is EventOf<'action'> => e.kind === 'action');
    t.is(action?.tool, 'shell_exec', line);
    t.like(action, { status: 'vetoed' }, line);
    t.regex(action!.summary, /rejected by skill "policy": destructive action \(forced or recursive file removal\)/, line);
  }
  t.true(existsSync(join(victim, 'sub')), 'the folder survived');
});

test('the policy skill rejects git clean forced with a separate -f or --force (checked on the input alone: it must never run in a test)', (t) => {
  const mind = new Mind();
  const goal = mind.addGoal({ description: 'tidy the repository' });
  for (const args of [['clean', '-d', '-f'], ['clean', '-x', '--force']]) {
    const action = { goalId: goal.id, tool: 'shell_exec', input: { command: 'git', args } };
    const verdict = policySkill.verify!(action, { mind, goal, signal: { type: 'tick', depth: 0 }, action, now: () => 0 });
    t.like(verdict, { verdict: 'reject', reason: 'destructive action (destroying git history or work) in shell_exec input' }, args.join(' '));
  }
  const dryRun = { goalId: goal.id, tool: 'shell_exec', input: { command: 'git', args: ['clean', '-d', '--dry-run'] } };
  t.like(policySkill.verify!(dryRun, { mind, goal, signal: { type: 'tick', depth: 0 }, action: dryRun, now: () => 0 }), { verdict: 'approve' });
});

test('the policy skill checks a long input in linear time: no pattern has an unbounded gap, so a goal of 30,000 repeated command words is approved without blocking the agent', (t) => {
  // An unbounded gap ([^"]* between a command and its option) is tried from every occurrence of the command to the end of the input:
  // quadratic, as it was, when 30,000 "dd " took 10 s to 50 s. Bounded gaps ({0,200}) keep the check linear.
  for (const { pattern } of DESTRUCTIVE_PATTERNS) t.notRegex(pattern.source, /\[\^[^\]]*\](\*|\+|\{\d+,\})/, `unbounded gap in ${pattern.source}`);
  const mind = new Mind();
  const goal = mind.addGoal({ description: 'ingest a long text' });
  for (const word of ['dd ', 'git push ', 'rm ', 'git clean ']) {
    const action = { goalId: goal.id, tool: 'content_ingest', input: { text: word.repeat(30_000) } };
    const verdict = policySkill.verify!(action, { mind, goal, signal: { type: 'tick', depth: 0 }, action, now: () => 0 });
    t.like(verdict, { verdict: 'approve' }, word);
  }
});
