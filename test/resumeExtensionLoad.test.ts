/**
 * Resuming a session with a mind extension that cannot load the state it
 * saved (a schema of a later version): attach says which extension and why,
 * and nothing of the refused session is written, so the store still resumes
 * from the session that saved the state. It used to write the refused
 * session's exit snapshot (of a half-restored mind) with no session row.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import type { MindExtension } from '../mind/mind.js';
import { AgentConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';
import { Persistence } from '../streams/session.js';

class Notes implements MindExtension {
  readonly name = 'notes';
  constructor(
    public state: unknown,
    private readonly strict = false,
  ) {}
  toJSON(): unknown {
    return this.state;
  }
  load(json: unknown): void {
    this.state = this.strict ? z.object({ version: z.literal(2) }).parse(json) : json;
  }
}

const config = AgentConfig.parse({ seed: 1, heartbeatMs: 0, maxCycles: 2 });

/** Opens the store for `session`, with a Notes extension registered on the agent; attaches it. */
async function open(db: string, session: string, notes: Notes) {
  const persistence = await Persistence.open({ db, fresh: false }, { session, config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), config: persistence.config, session });
  agent.mind.registerExtension(notes);
  const events$ = agent.run({ inputs: [from([{ source: 't', value: { type: 'goal', description: 'Find moons of Mars' } }])], hold: persistence.hold$ });
  return { persistence, agent, events$ };
}

test('a resume whose extension cannot load its saved state is refused by attach, naming it; nothing of it is stored and the saved state stays', async (t) => {
  const db = join(mkdtempSync(join(tmpdir(), 'ooda-resume-extension-')), 'store.db');
  const first = await open(db, 's1', new Notes({ version: 1, notes: ['try the other moon'] }));
  first.persistence.attach(first.agent, first.events$);
  const done = lastValueFrom(first.events$.pipe(toArray()));
  first.events$.connect();
  await done;
  await first.persistence.close('done');

  const refused = await open(db, 's2', new Notes({ version: 2 }, true));
  t.throws(() => refused.persistence.attach(refused.agent, refused.events$), { message: /^mind extension "notes" cannot load its saved state: version: / });
  t.is(refused.agent.mind.cycle, 0, 'the mind is left as it was');
  await refused.persistence.close('refused');
  const store = new Database(db, { readonly: true });
  const rows = (table: string) => (store.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${table === 'sessions' ? 'id' : 'session'} = 's2'`).get() as { n: number }).n;
  t.deepEqual([rows('sessions'), rows('snapshots'), rows('signals'), rows('events')], [0, 0, 0, 0]);
  store.close();

  const later = await open(db, 's3', new Notes(undefined));
  later.persistence.attach(later.agent, later.events$);
  t.deepEqual(later.agent.mind.extensions.get('notes')?.toJSON(), { version: 1, notes: ['try the other moon'] });
  const ended = lastValueFrom(later.events$.pipe(toArray()));
  later.events$.connect();
  await ended;
  await later.persistence.close('done');
});
