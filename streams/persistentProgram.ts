/**
 * `ooda run --db`, `resume` and `consolidate`: the program (streams/program.ts)
 * started on a store through a {@link Persistence} (streams/session.ts),
 * saying which session it resumes.
 */
import { StoreError } from '../sinks/storeError.js';
import { startProgram, type ProgramIO, type ProgramOptions, type RunningProgram } from './program.js';
import { Persistence, type PersistenceContext, type PersistenceOptions } from './session.js';
import type { StartUp } from './startUp.js';

/**
 * Opens the store and starts the program on it: resumes the latest session
 * unless `fresh` (saying so through `log`, followed by `resumeHint` in
 * parentheses when given: the CLI's `--fresh starts a new mind`), or fails
 * when `requireSession` and the store is missing or holds no session (`ooda
 * resume`). Until the program starts, an interrupted `startUp` stops the
 * opening (see {@link PersistenceContext.startUp}).
 */
export async function startPersistentProgram(
  program: ProgramOptions,
  store: Omit<PersistenceOptions, 'fresh'> & { fresh?: boolean; requireSession?: boolean; resumeHint?: string; resumeConfig?: PersistenceContext['resumeConfig'] },
  io: ProgramIO,
  log: (line: string) => void,
  startUp?: StartUp,
): Promise<RunningProgram> {
  const { resumeConfig, resumeHint, requireSession, ...opening } = store;
  const persistence = await Persistence.open(
    { ...opening, fresh: store.fresh ?? false, access: requireSession ? 'existing' : 'create' },
    { session: program.session, config: program.config, log, startUp, ...(resumeConfig ? { resumeConfig } : {}), ...(program.agent ? { agent: program.agent } : {}) },
  );
  const { resumed } = persistence;
  if (requireSession && !resumed) {
    await persistence.store.close();
    throw new StoreError(`store: ${store.db} holds no session to resume (start one with 'ooda run --db ${store.db}')`, 'NO_SESSION');
  }
  if (resumed) {
    const hint = resumeHint === undefined ? '' : ` (${resumeHint})`;
    log(`${store.db} holds session ${resumed.from}: resuming it at cycle ${resumed.cycle} as session ${program.session}${hint}`);
  }
  return startProgram({ ...program, config: persistence.config, persistence }, io);
}
