/**
 * Loop-detection settings (seed 003, plus the rules the seed lists as
 * missing), validated key by key: an invalid value falls back to its default
 * with a warning, as the seed's detector does, instead of failing the agent.
 *
 * The agent reads them from its config key `loopDetection`
 * (`OODA_LOOP_DETECTION__WINDOW_SIZE=7`, or `{"loopDetection": {…}}` in the
 * config file).
 */
import { z } from 'zod';
import { settingHint } from './settingName.js';

/**
 * The largest `windowSize`: the detector keeps a ring of that many actions per
 * goal, preallocated, so an unbounded window would exhaust the heap.
 */
export const MAX_LOOP_WINDOW = 1_000;

const fields = {
  /** Actions the seed's rules look at (the newest, after dropping thinking actions); 1 to {@link MAX_LOOP_WINDOW}. */
  windowSize: z.number().int().min(1).max(MAX_LOOP_WINDOW).default(5),
  /** Newest actions of one type that make a `consecutive_action` loop. */
  maxConsecutiveActions: z.number().int().min(1).default(3),
  /** Share of the window one type must exceed for a `high_frequency_action` loop; in (0, 1] (1: never). */
  frequencyThreshold: z.number().gt(0).max(1).default(0.7),
  /** Drop actions marked `thinking` before any rule runs. */
  ignoreThinkingActions: z.boolean().default(true),
  /**
   * Actions after a reported loop during which no new loop is reported (they
   * still count): by default a new window's worth, so a goal that resumes
   * after an intervention is not flagged again at once.
   */
  cooldownActions: z.number().int().min(0).default(5),
  /** Detect `periodic_sequence` loops: A-B-A-B, A-B-C-A-B-C, … */
  periodic: z.boolean().default(true),
  /** Longest period looked for (the shortest is 2). */
  maxPeriod: z.number().int().min(2).max(8).default(4),
  /** Full repeats of the period that make a loop. */
  periodRepeats: z.number().int().min(2).max(16).default(2),
  /** Compare actions by type and params: READ a.txt then READ b.txt is not a repeat. */
  paramAware: z.boolean().default(false),
  /** Detect `no_state_change` loops from the actions' `stateHash`. */
  stateAware: z.boolean().default(true),
  /** Newest actions with one and the same `stateHash` that make a `no_state_change` loop. */
  unchangedStateActions: z.number().int().min(2).default(8),
  /** Agent only: run the loop-detection watcher at all. */
  enabled: z.boolean().default(true),
  /** Agent only: actions of these tools are thinking actions. */
  thinkingTools: z.array(z.string()).default(['reason']),
  /** Agent only: priority of the intervention goal (0–255). */
  interventionPriority: z.number().int().min(0).max(255).default(255),
  /** Agent only: cycles without progress the intervention goal gets (its stall threshold). */
  interventionCycles: z.number().int().min(1).default(3),
};

/** The schema of the `loopDetection` section; {@link resolveLoopConfig} applies it leniently. */
export const LoopConfig = z.object(fields);
export type LoopConfig = z.infer<typeof LoopConfig>;
/** What a user may write: any subset of the keys. */
export type LoopConfigInput = z.input<typeof LoopConfig>;

/** A setting that was replaced by its default, and why. */
export interface LoopConfigWarning {
  /** The key, as written under `loopDetection` (e.g. `frequencyThreshold`). */
  key: string;
  message: string;
}

/** The defaults, fully resolved. */
export function defaultLoopConfig(): LoopConfig {
  return LoopConfig.parse({});
}

/**
 * Validates a `loopDetection` section key by key. A missing key takes its
 * default silently; an invalid value takes its default with a warning naming
 * the key, the value and the reason; an unknown key is ignored with a warning.
 * Never throws.
 */
export function resolveLoopConfig(input: unknown = {}): { config: LoopConfig; warnings: LoopConfigWarning[] } {
  const config = defaultLoopConfig();
  const warnings: LoopConfigWarning[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    warnings.push({ key: '(section)', message: `loopDetection must be an object, got ${JSON.stringify(input)}; using the defaults` });
    return { config, warnings };
  }
  const values = input as Record<string, unknown>;
  const settable = config as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) {
    // Its own keys only: `__proto__`, `toString`, … are no settings either.
    const field = Object.hasOwn(fields, key) ? (fields as Record<string, z.ZodType>)[key] : undefined;
    if (!field) {
      warnings.push({ key, message: `loopDetection.${key} is not a setting; ignored${settingHint(key, Object.keys(fields))}` });
      continue;
    }
    if (value === undefined) continue;
    const parsed = field.safeParse(value);
    if (parsed.success) settable[key] = parsed.data;
    else {
      const reason = parsed.error.issues[0]?.message ?? 'invalid';
      warnings.push({
        key,
        message: `loopDetection.${key} = ${JSON.stringify(value)} is invalid (${reason}); using the default ${JSON.stringify(settable[key])}`,
      });
    }
  }
  return { config, warnings };
}

/** Resolves a section like {@link resolveLoopConfig}, dropping the warnings (a resolved config comes back equal). */
export function asLoopConfig(input: LoopConfigInput | LoopConfig | undefined): LoopConfig {
  return resolveLoopConfig(input ?? {}).config;
}
