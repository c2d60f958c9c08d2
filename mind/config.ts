/**
 * The mind's settings: memory, goals, planning and tool limits. The agent's
 * configuration (streams/config.ts) extends this schema with the runtime's.
 */
import { z } from 'zod';

/** The longest period a Node timer takes (2^31 − 1 ms, about 24.8 days); longer ones silently become 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A period in ms that a timer can honour: a whole number from 0 to {@link MAX_TIMER_MS}. */
export const periodMs = () => z.number().int().nonnegative().max(MAX_TIMER_MS);

export const MindConfig = z.object({
    /** Seed for ids and randomness, so runs are reproducible. */
    seed: z.number().int().default(1),
    /** Working-memory capacity in entries (seed 001: 100). */
    workingMemoryCapacity: z.number().int().positive().default(100),
    /** Consolidate automatically when memory pressure exceeds `consolidationPressure`. */
    autoConsolidate: z.boolean().default(true),
    consolidationPressure: z.number().gt(0).max(1).default(0.8),
    /** Cycles without progress before a goal is decomposed. */
    stallThreshold: z.number().int().positive().default(6),
    /** Plan retries before a goal fails: the first plan and this many more (seed 001: 3). */
    maxBacktrackAttempts: z.number().int().nonnegative().default(3),
    /** Finished (completed or failed) goals kept in the mind; older ones are retired with their plans, so a long run stays bounded. */
    finishedGoalsKept: z.number().int().nonnegative().default(100),
    /** Episodes kept in episodic memory; the oldest past it are retired (they leave recall), so a long run stays bounded. */
    episodesKept: z.number().int().nonnegative().default(1_000),
    /** Documents kept in the library (library_search); the oldest past it are retired, so a long run's library and snapshots stay bounded. */
    documentsKept: z.number().int().nonnegative().default(100),
    tools: z
      .object({
        /** shell_exec runs nothing unless this is true. */
        shellExec: z.boolean().default(false),
        shellTimeoutMs: periodMs().positive().default(5_000),
        /** file_io reads and writes only inside this folder; an empty path (the working directory) is refused. */
        workspace: z
          .string()
          .refine((path) => path.trim() !== '', 'must name a folder (empty would let file_io use the working directory); use e.g. "./workspace"')
          .default('./workspace'),
        /** Largest file file_io reads, in bytes. */
        fileMaxBytes: z.number().int().positive().default(1_048_576),
        /** Hosts http_fetch may contact; empty means none. */
        httpAllowHosts: z.array(z.string()).default([]),
        httpTimeoutMs: periodMs().positive().default(5_000),
        httpMaxBytes: z.number().int().positive().default(1_048_576),
        /** How long user_interact waits for an answer. */
        questionTimeoutMs: periodMs().positive().default(60_000),
      })
      .strict()
      .default({
        shellExec: false,
        shellTimeoutMs: 5_000,
        workspace: './workspace',
        fileMaxBytes: 1_048_576,
        httpAllowHosts: [],
        httpTimeoutMs: 5_000,
        httpMaxBytes: 1_048_576,
        questionTimeoutMs: 60_000,
      }),
});

export type MindConfig = z.infer<typeof MindConfig>;

/** The defaults, fully resolved. */
export function defaultMindConfig(): MindConfig {
  return MindConfig.parse({});
}
