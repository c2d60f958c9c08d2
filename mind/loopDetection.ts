/**
 * Loop detection (seed 003) as a pure function over an action log, plus the
 * rules the seed lists as missing. `findLoop` is the reference; the
 * incremental {@link LoopDetector} (loopDetector.ts) gives the same answers in
 * amortised O(1) per action.
 *
 * Rules, in order (the first that matches wins):
 * 1. `consecutive_action` — the window (the newest `windowSize` actions, after
 *    dropping thinking actions when configured) holds at least
 *    `maxConsecutiveActions` actions and the newest that many share one type.
 * 2. `high_frequency_action` — the window holds at least
 *    max(2, floor(windowSize × 0.5)) actions, its most common type occurs at
 *    least max(2, maxConsecutiveActions − 1) times and count / window length
 *    (unrounded) ≥ `frequencyThreshold`. Ties go to the type seen most recently.
 * 3. `periodic_sequence` — the newest period × `periodRepeats` actions repeat
 *    one block of `period` actions (2 ≤ period ≤ `maxPeriod`, the shortest
 *    first) that is not a single repeated type.
 * 4. `no_state_change` — the newest `unchangedStateActions` actions all carry
 *    one and the same `stateHash`.
 *
 * With `paramAware`, "same type" means same type and same params (compared by
 * their JSON text).
 */
import { asLoopConfig, type LoopConfig, type LoopConfigInput } from './loopConfig.js';

/** One executed action, as the detector sees it. */
export interface ActionRecord {
  /** The action's type (for the agent: the tool name). */
  type: string;
  /** Its parameters; compared only with `paramAware`. */
  params?: unknown;
  /** How it ended (e.g. `ok`, `failed`); informational. */
  outcome?: string;
  /** A thinking action (dropped when `ignoreThinkingActions`). */
  thinking?: boolean;
  /** A hash of the knowledge and goal state after the action (`mind.stateHash()`). */
  stateHash?: string;
}

export type LoopType = 'consecutive_action' | 'high_frequency_action' | 'periodic_sequence' | 'no_state_change';

/** A detected loop. */
export interface LoopInfo {
  type: LoopType;
  /** The repeated type; for a periodic sequence its block joined with ` → `. */
  actionType: string;
  /** Actions that make the loop: the run, the most common type's count, period × repeats, or the unchanged run. */
  count: number;
  /** How many actions the rule examined. */
  windowSize: number;
  /** `high_frequency_action` only: count / window length, rounded to 2 places. */
  frequency?: number;
  /** `periodic_sequence` only. */
  period?: number;
  /** A human sentence. */
  details: string;
}

/**
 * Finds a loop in `actions` (in order of occurrence, newest last), or null.
 * `config` may be partial; invalid values take their defaults (see
 * `resolveLoopConfig` for the warnings).
 */
export function findLoop(actions: readonly ActionRecord[], config?: LoopConfigInput | LoopConfig): LoopInfo | null {
  const cfg = asLoopConfig(config);
  const kept = cfg.ignoreThinkingActions ? actions.filter((a) => !a.thinking) : actions;
  const keys = kept.map((a) => actionKey(a, cfg.paramAware));
  const n = keys.length;
  const window = keys.slice(-cfg.windowSize);
  const m = cfg.maxConsecutiveActions;

  if (window.length >= m && sameRunLength(keys) >= m) {
    return consecutiveLoop(cfg, kept[n - 1]!.type, keys[n - 1]!, window.length);
  }

  if (window.length >= minFrequencyWindow(cfg)) {
    const counts = new Map<string, number>();
    for (const key of window) counts.set(key, (counts.get(key) ?? 0) + 1);
    let best = 0;
    for (const count of counts.values()) best = Math.max(best, count);
    if (isHighFrequency(cfg, best, window.length)) {
      const index = lastIndexWithCount(keys, counts, best);
      return highFrequencyLoop(cfg, kept[index]!.type, keys[index]!, best, window.length);
    }
  }

  if (cfg.periodic) {
    for (let period = 2; period <= cfg.maxPeriod; period++) {
      const span = period * cfg.periodRepeats;
      if (n < span) break;
      let repeats = true;
      for (let i = n - span + period; i < n && repeats; i++) repeats = keys[i] === keys[i - period];
      if (repeats && sameRunLength(keys) < period) {
        return periodicLoop(cfg, period, kept.slice(n - period).map((a) => a.type), keys.slice(n - period));
      }
    }
  }

  if (cfg.stateAware && n >= cfg.unchangedStateActions) {
    const hash = kept[n - 1]!.stateHash;
    let run = 0;
    while (hash !== undefined && run < n && kept[n - 1 - run]!.stateHash === hash) run++;
    if (run >= cfg.unchangedStateActions) return unchangedStateLoop(cfg, kept[n - 1]!.type, hash!);
  }
  return null;
}

/** How many of the newest keys are equal to the newest. */
function sameRunLength(keys: readonly string[]): number {
  const n = keys.length;
  let run = 0;
  while (run < n && keys[n - 1 - run] === keys[n - 1]) run++;
  return run;
}

/** The index of the newest key whose count in the window is `count`. */
function lastIndexWithCount(keys: readonly string[], counts: Map<string, number>, count: number): number {
  for (let i = keys.length - 1; ; i--) if (counts.get(keys[i]!) === count) return i;
}

// ——— shared by findLoop and LoopDetector, so both report exactly the same ———

const PARAM_SEPARATOR = '\u0000';

/** What "the same action" means: the type, or with `paramAware` the type and the params' JSON text. */
export function actionKey(action: ActionRecord, paramAware: boolean): string {
  if (!paramAware || action.params === undefined) return action.type;
  let text: string | undefined;
  try {
    text = JSON.stringify(action.params);
  } catch {
    text = String(action.params);
  }
  return `${action.type}${PARAM_SEPARATOR}${text}`;
}

/** An action key as a human reads it: `READ {"path":"a.txt"}`. */
function keyLabel(key: string): string {
  return key.replace(PARAM_SEPARATOR, ' ');
}

/** The fewest actions the window must hold for the frequency check: max(2, floor(windowSize × 0.5)). */
export function minFrequencyWindow(cfg: LoopConfig): number {
  return Math.max(2, Math.floor(cfg.windowSize * 0.5));
}

/** The frequency rule for the most common count in a window of `length` actions. */
export function isHighFrequency(cfg: LoopConfig, count: number, length: number): boolean {
  return count >= Math.max(2, cfg.maxConsecutiveActions - 1) && count / length >= cfg.frequencyThreshold;
}

export function consecutiveLoop(cfg: LoopConfig, type: string, key: string, windowLength: number): LoopInfo {
  const count = cfg.maxConsecutiveActions;
  return {
    type: 'consecutive_action',
    actionType: type,
    count,
    windowSize: windowLength,
    details: `${keyLabel(key)} ran ${count} times in a row (the newest ${count} of ${windowLength} actions)`,
  };
}

export function highFrequencyLoop(cfg: LoopConfig, type: string, key: string, count: number, windowLength: number): LoopInfo {
  const frequency = Math.round((count / windowLength) * 100) / 100;
  return {
    type: 'high_frequency_action',
    actionType: type,
    count,
    windowSize: windowLength,
    frequency,
    details: `${keyLabel(key)} made up ${count} of the last ${windowLength} actions (${frequency.toFixed(2)} ≥ threshold ${cfg.frequencyThreshold})`,
  };
}

export function periodicLoop(cfg: LoopConfig, period: number, types: readonly string[], keys: readonly string[]): LoopInfo {
  const count = period * cfg.periodRepeats;
  return {
    type: 'periodic_sequence',
    actionType: types.join(' → '),
    count,
    windowSize: count,
    period,
    details: `the sequence ${keys.map(keyLabel).join(' → ')} repeated ${cfg.periodRepeats} times in full (period ${period})`,
  };
}

export function unchangedStateLoop(cfg: LoopConfig, type: string, hash: string): LoopInfo {
  const count = cfg.unchangedStateActions;
  return {
    type: 'no_state_change',
    actionType: type,
    count,
    windowSize: count,
    details: `${count} actions in a row, the newest ${type}, left the state unchanged (state ${hash})`,
  };
}
