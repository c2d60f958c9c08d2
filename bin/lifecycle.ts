/**
 * How a run ends (`run`, `resume`, `demo`, `consolidate`): SIGINT / SIGTERM /
 * SIGHUP, handled from the start of the command, stop it with exit code 130 /
 * 143 / 129 —
 * before it runs, by stopping its start-up with nothing of it written; once it
 * runs, gracefully. A second signal exits at once. What an exit that cannot
 * finish leaves behind — rows never written to the store, a session not
 * marked ended — is said on stderr, never lost silently.
 */
import { StartInterrupted, StartUp, StoreError, type RunningProgram } from '../streams/index.js';
import { log } from './cli.js';
import { exitOnSignals, handSignalsTo, signalExitCode } from './signalExit.js';

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

/** What a program must offer to be run with signals. */
type Program = Pick<RunningProgram, 'stop' | 'done' | 'unwrittenRows' | 'sessionStored' | 'storeClosed'>;

/**
 * What a start-up stopped before the run leaves: nothing of the session, and
 * the store's sessions (a crashed one included) as they were stored.
 */
function nothingWritten({ store, options: { session } }: RunTarget): string {
  const kept = store && store.db !== ':memory:' ? ` to ${store.db}, whose sessions are as they were stored` : '';
  return `nothing of session ${session} was written${kept}`;
}

/** What a second signal, which exits at once, leaves: before the run started, nothing of it; once it runs, the rows still queued. */
function secondSignal(signal: NodeJS.Signals, program: Program | undefined, target: RunTarget): string {
  const { store, options: { session } } = target;
  if (!program) return `second ${signal}: exiting at once, before the run started: ${nothingWritten(target)}`;
  if (!store) return `second ${signal}: exiting at once, without draining`;
  if (program.storeClosed) return `second ${signal}: exiting at once: session ${session} is written to ${store.db} and ended there; only lines stdout's reader had not taken are lost`;
  return `second ${signal}: exiting without flushing: ${rows(program.unwrittenRows)} still queued for ${store.db} are not written, nor is the exit snapshot; ${sessionLeft(store.db, session, program.sessionStored)}`;
}

/**
 * Starts the program with `start` and runs it until `program.done` settles,
 * with SIGINT / SIGTERM / SIGHUP handled from the first moment; each sets the
 * exit code to 130 / 143 / 129.
 * - Before the program runs (the store opening, a crashed session's signals
 *   being re-applied), the first signal interrupts the {@link StartUp} given
 *   to `start`, which stops at its next step and closes the store: nothing of
 *   the run is written, and the result has no `program`. A store error the
 *   start-up ends with meanwhile (another writer's lock, waited for) is said
 *   first; the exit code is still the signal's.
 * - Once it runs, the first signal calls `program.stop` (graceful).
 * - A second signal exits at once, saying how many queued rows are not written
 *   and what is left of the session ({@link sessionLeft}).
 * A store that cannot be written at the end rejects with a {@link StoreError}
 * saying the same, after its cause. Before and after it, a signal exits with
 * its code at once (bin/signalExit.ts), when the executable set that up.
 */
export async function withSignals<P extends Program>(target: RunTarget, start: (startUp: StartUp) => Promise<P>): Promise<{ code: number; program?: P }> {
  const startUp = new StartUp();
  let program: P | undefined;
  let code = 0;
  let interrupted: NodeJS.Signals | undefined;
  const handler = (signal: NodeJS.Signals): void => {
    if (code !== 0) {
      log(secondSignal(signal, program, target));
      process.exit(code);
    }
    code = signalExitCode(signal);
    if (program) {
      log(`${signal} received: stopping (sources first, then draining and flushing; a second ${signal} exits at once without flushing)`);
      program.stop(signal);
    } else {
      log(`${signal} received while ${startUp.doing}: stopping before the run starts (a second ${signal} exits at once)`);
      interrupted = signal;
      startUp.interrupt(signal);
    }
  };
  const wasExiting = handSignalsTo(handler);
  try {
    program = await start(startUp).catch((error: unknown) => {
      if (!interrupted || !(error instanceof StartInterrupted || error instanceof StoreError)) throw error;
      // A store that failed while the start-up was interrupted (another writer's lock, waited for) is said, then the interruption.
      if (error instanceof StoreError) log(error.message);
      log(`${interrupted}: stopped before the run started: ${nothingWritten(target)}`);
      return undefined;
    });
    if (program) await ended(program, target);
  } finally {
    // A signal while the process winds down still ends it with its code.
    if (wasExiting) exitOnSignals('after the run ended');
    else handSignalsTo(undefined);
  }
  return { code, program };
}

/** Waits for `program.done`; a store that cannot be written at the end is its cause, then a {@link StoreError} saying what is not written. */
async function ended(program: Program, { store, options: { session } }: RunTarget): Promise<void> {
  try {
    await program.done;
  } catch (error) {
    if (!(store && error instanceof StoreError)) throw error;
    log(error.message);
    throw new StoreError(`${rows(program.unwrittenRows)} not written to ${store.db}; ${sessionLeft(store.db, session, program.sessionStored)}`, error.code);
  }
}
