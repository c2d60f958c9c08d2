/**
 * How a run ends (`run`, `resume`, `demo`): SIGINT / SIGTERM stop it
 * gracefully with exit code 130 / 143; a second signal exits at once. What an
 * exit that cannot finish leaves behind — rows never written to the store, a
 * session not marked ended — is said on stderr, never lost silently.
 */
import { StoreError, type RunningProgram } from '../streams/index.js';
import { log } from './cli.js';

/** What the messages need of a parsed run: its store (if any) and session. */
export interface RunTarget {
  store?: { db: string } | undefined;
  options: { session: string };
}

/** How many rows did not reach the store: `1,234 row(s)`. */
function rows(count: number): string {
  return `${count.toLocaleString('en-US')} row(s)`;
}

/**
 * What an exit that leaves the store unfinished leaves of the session: once
 * the store has committed its start (its row and first snapshot) it is left
 * `running`, and `ooda resume` continues it; before that nothing of it is
 * stored; an in-memory store keeps nothing once the process is gone.
 */
export function sessionLeft(db: string, session: string, sessionStored: boolean): string {
  if (db === ':memory:') return `nothing of session ${session} outlives the process: the store is in memory`;
  if (!sessionStored) return `nothing of session ${session} is stored (the store had not committed its start), so ooda resume cannot continue it`;
  return `session ${session} is left running: ooda resume re-applies the signals it recorded`;
}

/**
 * Runs until `program.done` settles; SIGINT / SIGTERM call `program.stop`
 * (graceful) and set the exit code to 130 / 143; a second signal exits at once,
 * saying how many queued rows are not written and what is left of the session
 * ({@link sessionLeft}). A store that cannot be written
 * at the end rejects with a {@link StoreError} saying the same, after its cause.
 */
export async function withSignals(program: Pick<RunningProgram, 'stop' | 'done' | 'unwrittenRows' | 'sessionStored'>, { store, options: { session } }: RunTarget): Promise<number> {
  let code = 0;
  const handler = (signal: NodeJS.Signals): void => {
    if (code !== 0) {
      log(
        store
          ? `second ${signal}: exiting without flushing: ${rows(program.unwrittenRows)} still queued for ${store.db} are not written, nor is the exit snapshot; ${sessionLeft(store.db, session, program.sessionStored)}`
          : `second ${signal}: exiting at once, without draining`,
      );
      process.exit(code);
    }
    code = signal === 'SIGINT' ? 130 : 143;
    log(`${signal} received: stopping (sources first, then draining and flushing; a second ${signal} exits at once without flushing)`);
    program.stop(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    await program.done;
  } catch (error) {
    if (!(store && error instanceof StoreError)) throw error;
    log(error.message);
    throw new StoreError(`${rows(program.unwrittenRows)} not written to ${store.db}; ${sessionLeft(store.db, session, program.sessionStored)}`, error.code);
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
  return code;
}
