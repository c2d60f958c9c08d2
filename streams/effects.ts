/**
 * Recorded effects: the contract between a tool's I/O (`ToolContext.effect`)
 * and a store. A live run hands each effect's outcome to `record` as it
 * settles; a re-run of a recording (`ooda replay`, crash recovery on resume)
 * asks `recorded` for it instead of doing the I/O again, so a session whose
 * tools read files, fetched pages or ran programs replays identically, and a
 * crashed one is restored to what its tools saw.
 *
 * An effect is named by its place in the run: the cycle whose tool started it
 * and `n`, its order among the effects started at that cycle number (a cycle
 * rolled back and run again keeps counting, so no two share a key).
 */
import { z } from 'zod';

export interface EffectKey {
  cycle: number;
  n: number;
}

/** How an effect ended: its value, its error, or never (`abandoned`: the tool's run was given up on first). */
export type EffectOutcome = 'ok' | 'error' | 'abandoned';

/** An error as an effect's record keeps it: enough to rebuild the same error (see operators/toolEffect.ts). */
export const EffectError = z.object({
  name: z.string(),
  message: z.string(),
  code: z.union([z.string(), z.number()]).optional(),
  /** A ToolFailure's tool. */
  tool: z.string().optional(),
});
export type EffectError = z.infer<typeof EffectError>;

export interface RecordedEffect extends EffectKey {
  /** Scheduler time it settled (or was given up), as the `effects` table shows it; a re-run settles it at once, not at this time. */
  at: number;
  /** Read back: the order it settled in among its session's effects (the store's row id). A re-run settles the effects due together in this order. */
  id?: number;
  /** The tool that started it. */
  tool: string;
  /** What it did, as the tool named it (`read notes.txt`, `GET https://…`, `run ls -l`). */
  name: string;
  outcome: EffectOutcome;
  /** `ok`: the value as JSON carries it (absent for undefined); `error`: an {@link EffectError}. */
  value?: unknown;
}

/** The `effects` option of createAgent. */
export interface EffectLog {
  /** A live run's recorder: called as each effect settles or is given up. */
  record?(effect: RecordedEffect): void;
  /**
   * A re-run's source (with `replaying`): the effect recorded at `key`, or
   * undefined when there is none (a recording older than effects, or a crash
   * before it was stored). The clock of a re-run waits for the answer.
   */
  recorded?(key: EffectKey): Promise<RecordedEffect | undefined>;
}
