/**
 * Records a whole persisted run into a store file, as `ooda run --db` does:
 * every signal, event and snapshot of session `session`, then closes it; with
 * `crash`, leaves it as `kill -9` after the last write would: everything
 * flushed, but no exit snapshot and the session still `running`.
 */
import { from, lastValueFrom } from 'rxjs';
import { AgentConfig } from '../../streams/config.js';
import { createAgent, type Agent, type AgentOptions } from '../../streams/createAgent.js';
import { Persistence } from '../../streams/session.js';
import type { Stimulus } from '../../streams/signals.js';

export async function recordSession(
  db: string,
  session: string,
  config: AgentConfig,
  stimuli: Stimulus[],
  { crash = false, ...options }: Pick<AgentOptions, 'tools'> & { crash?: boolean } = {},
): Promise<Agent> {
  const persistence = await Persistence.open({ db, fresh: true }, { session, config, log: () => undefined });
  const agent = createAgent({ ...persistence.agentOptions(), ...options, config, session });
  const events$ = agent.run({ inputs: [from(stimuli)], hold: persistence.hold$ });
  persistence.attach(agent, events$);
  const done = lastValueFrom(events$);
  events$.connect();
  await done;
  if (crash) {
    await persistence.sink.flushed();
    await persistence.store.close();
  } else await persistence.close('done');
  return agent;
}
