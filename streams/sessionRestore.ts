/**
 * Restoring a session's mind to resume it: its latest snapshot and, when the
 * session crashed, the signals it recorded after that snapshot re-applied on
 * virtual time (their tools given their recorded effects), so the state is the
 * one the store acknowledged.
 */
import { recordedEffects } from '../sinks/effectRows.js';
import type { SqliteStore } from '../sinks/sqliteStore.js';
import type { SessionRow } from '../sinks/storeSchema.js';
import { StoreError } from '../sinks/storeError.js';
import type { MindState } from '../mind/mind.js';
import type { AgentOptions } from './createAgent.js';
import { replayOn } from './replay.js';
import { saveCommand } from './saveCommand.js';
import type { StartUp } from './startUp.js';
import { storedConfig, storedMindState } from './storedState.js';

/** What restoring needs of the run that resumes. */
export interface RestoreContext {
  /** Tools, watchers and commands of the run, used to re-apply a crashed session's signals. */
  agent?: Omit<AgentOptions, 'config' | 'session' | 'scheduler' | 'firstSeq' | 'onEnter'>;
  /** Where progress lines go (stderr in the CLI). */
  log: (line: string) => void;
  /**
   * Opening the store and restoring the session say what they are doing on it,
   * and stop at their next step once it is interrupted: the store is closed and
   * `Persistence.open` rejects with its StartInterrupted.
   */
  startUp?: StartUp;
}

/** The latest snapshot of a session (validated) plus, if it crashed, the signals it recorded after it, re-applied. */
export async function restoreState(store: SqliteStore, session: SessionRow, context: RestoreContext): Promise<{ state: MindState; reapplied: number; savedPaused: boolean }> {
  const snapshot = await store.snapshot(session.id, 'latest');
  if (!snapshot) throw new StoreError(`store: session ${session.id} has no snapshot`, 'NO_SNAPSHOT');
  const state = storedMindState(store.file, snapshot);
  const savedPaused = state.paused;
  const tail = await store.signalCount(session.id, snapshot.signal_id);
  if (tail === 0) return { state, reapplied: 0, savedPaused };
  const signals = `${tail} signal(s) recorded after its last snapshot (cycle ${snapshot.cycle})`;
  context.startUp?.step(`re-applying the ${tail} signal(s) session ${session.id} recorded after its last snapshot`);
  context.log(`session ${session.id}: re-applying ${signals}\u2026`);
  const agent = await replayOn(
    {
      session: session.id,
      config: storedConfig(store.file, session),
      firstSeq: 0,
      base: state,
      startAt: snapshot.at,
      signals: store.signalPages(session.id, snapshot.signal_id),
      effects: recordedEffects(store, session.id),
    },
    { ...context.agent, commands: [...(context.agent?.commands ?? []), saveCommand] },
    () => undefined,
    // Between pages of signals: an interrupted start-up stops here.
    async () => context.startUp?.check(),
  );
  context.log(`session ${session.id}: re-applied ${signals}`);
  return { state: agent.mind.toJSON(), reapplied: tail, savedPaused };
}
