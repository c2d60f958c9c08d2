/**
 * Persistence.agentOptions(base) with options of the caller's own: its
 * `onEnter` hook used to be replaced by the recorder without a word (called
 * 0 times), and so was an `effects` log, while `commands` were merged. Now a
 * hook of the caller's runs first and the recorder last, and what cannot be
 * combined with the store's own is refused, naming it.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { AgentConfig } from '../streams/config.js';
import { createAgent, type Entering } from '../streams/createAgent.js';
import type { AgentEvent } from '../streams/events.js';
import { Persistence } from '../streams/session.js';

const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 2 });
const open = async (name: string): Promise<{ db: string; persistence: Persistence }> => {
  const db = join(mkdtempSync(join(tmpdir(), `ooda-${name}-`)), 'store.db');
  return { db, persistence: await Persistence.open({ db, fresh: true }, { session: 's1', config, log: () => undefined }) };
};

test("the caller's onEnter hook is called for every pass, before the recorder, which records what the hook let take the pass, also after it threw", async (t) => {
  const { db, persistence } = await open('user-on-enter');
  const seen: string[] = [];
  const onEnter = (entering: Entering): Entering | void => {
    if (!('signal' in entering)) return;
    seen.push(entering.signal.type);
    if (entering.signal.type === 'input') throw new Error('audit log unreachable');
    if (entering.signal.type === 'fact') return { signal: { ...entering.signal, meta: { ...entering.signal.meta, correlationId: 'audited' } } };
  };
  const agent = createAgent({ ...persistence.agentOptions({ onEnter }), config, session: 's1' });
  const stimuli = [
    { source: 't', value: { type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' } },
    { source: 't', value: { type: 'input', text: 'hello' } },
    { source: 't', value: { type: 'goal', description: 'Find moons of Mars' } },
  ];
  const events$ = agent.run({ inputs: [from(stimuli)], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const emitted = lastValueFrom(events$.pipe(toArray()));
  events$.connect();
  const events: AgentEvent[] = await emitted;
  await persistence.close('done');

  const file = new Database(db, { readonly: true });
  try {
    const recorded = file.prepare('SELECT type, body FROM signals ORDER BY id').all() as { type: string; body: string }[];
    t.deepEqual(seen, recorded.map((r) => r.type), 'the hook saw every signal the store recorded, in order');
    t.true(seen.length >= 3, seen.join(', '));
    t.is(JSON.parse(recorded[0]!.body).meta.correlationId, 'audited', "the hook's mark is what was recorded");
    t.is(recorded[1]!.type, 'input', 'the signal whose hook threw is still recorded');
  } finally {
    file.close();
  }
  t.like(events.find((e) => e.kind === 'error'), { severity: 'critical', message: 'onEnter[0] failed: audit log unreachable; the pass went on' });
});

test('an effects log, or a firstSeq other than the store\'s next, cannot be combined with the store\'s own: a TypeError names it; commands are still merged', async (t) => {
  const { persistence } = await open('agent-options-refused');
  t.throws(() => persistence.agentOptions({ effects: { record: () => undefined } }), { instanceOf: TypeError, message: /^Persistence\.agentOptions effects: the store records the tools' effects itself/ });
  t.throws(() => persistence.agentOptions({ effects: { recorded: async () => undefined } }), { instanceOf: TypeError, message: /^Persistence\.agentOptions effects: / });
  t.throws(() => persistence.agentOptions({ firstSeq: 7 }), {
    instanceOf: TypeError,
    message: `Persistence.agentOptions firstSeq: the store numbers this session's events from its next free seq, ${persistence.firstSeq} (got 7): leave firstSeq out`,
  });
  const options = persistence.agentOptions({ firstSeq: persistence.firstSeq, commands: [['hello', () => 'hi']] });
  t.deepEqual([...options.commands].map(([name]) => name), ['hello', 'save']);
  await persistence.close('done');
});
