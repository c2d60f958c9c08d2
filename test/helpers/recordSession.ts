/**
 * Recording a session into a store, and resuming a crashed one.
 */
import { from, isObservable, lastValueFrom, Subject, type Observable } from 'rxjs';
import { AgentConfig } from '../../streams/config.js';
import { createAgent, type Agent, type AgentOptions, type AgentSources } from '../../streams/createAgent.js';
import type { AgentEvent } from '../../streams/events.js';
import { Persistence } from '../../streams/session.js';
import type { Stimulus } from '../../streams/signals.js';

/**
 * Records a whole persisted run into a store file, as `ooda run --db` does:
 * every signal, event and snapshot of session `session` (`ambient` sources,
 * a heartbeat say, run beside the stimuli; `started` gets the agent as its
 * run starts), then closes it; with
 * `crash`, leaves it as `kill -9` after the last write would: everything
 * flushed, but no exit snapshot and the session still `running`.
 */
export async function recordSession(
  db: string,
  session: string,
  config: AgentConfig,
  stimuli: Stimulus[] | Observable<Stimulus>,
  { crash = false, ambient = [], started, ...options }: Pick<AgentOptions, 'tools'> & Pick<AgentSources, 'ambient'> & { crash?: boolean; started?: (agent: Agent) => void } = {},
): Promise<Agent> {
  const persistence = await Persistence.open({ db, fresh: true }, { session, config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), ...options, config, session });
  const events$ = agent.run({ inputs: [isObservable(stimuli) ? stimuli : from(stimuli)], ambient, hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const done = lastValueFrom(events$);
  started?.(agent);
  events$.connect();
  await done;
  if (crash) {
    await persistence.sink.flushed();
    await persistence.store.close();
  } else await persistence.close('done');
  return agent;
}

/** Resumes the crashed session of `db` (re-applying its signals after its last save) and returns the mind state it starts from and how many signals it re-applied. */
export async function resumeCrashed(db: string, config: AgentConfig): Promise<{ state: unknown; reapplied: number }> {
  const resumed = await Persistence.open({ db, fresh: false }, { session: 'resumed', config, log: () => undefined });
  const agent = createAgent({ ...resumed.agentOptions(), config: resumed.config, session: 'resumed' });
  const events$ = new Subject<AgentEvent>();
  resumed.attach(agent, events$);
  const state = agent.mind.toJSON();
  events$.complete();
  await resumed.close('done');
  return { state, reapplied: resumed.resumed?.reapplied ?? 0 };
}
