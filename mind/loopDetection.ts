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
 *    (unrounded) exceeds `frequencyThreshold` (strictly, as seed 003 says).
 *    Ties go to the type seen most recently.
 * 3. `periodic_sequence` — the newest period × `periodRepeats` actions repeat
 *    one block of `period` actions (2 ≤ period ≤ `maxPeriod`, the shortest
 *    first) that is not a single repeated type.
 * 4. `no_state_change` — the newest `unchangedStateActions` actions all carry
 *    one and the same `stateHash`.
 *
 * With `paramAware`, "same type" means same type and deeply equal params
 * (see `sameAction`).
 */
import { actionLabel, sameAction } from './actionIdentity.js';
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
  const same = (i: number, j: number): boolean => sameAction(kept[i]!, kept[j]!, cfg.paramAware);
  const n = kept.length;
  const windowLength = Math.min(n, cfg.windowSize);
  const m = cfg.maxConsecutiveActions;
  let run = 0;
  while (run < n && same(n - 1 - run, n - 1)) run++;

  if (windowLength >= m && run >= m) return consecutiveLoop(cfg, kept[n - 1]!, windowLength);

  if (windowLength >= minFrequencyWindow(cfg)) {
    // The most common action; among equals the one seen most recently.
    let best = 0;
    let newest = -1;
    for (let i = n - 1; i >= n - windowLength; i--) {
      let count = 0;
      for (let j = n - windowLength; j < n; j++) if (same(i, j)) count++;
      if (count > best) [best, newest] = [count, i];
    }
    if (isHighFrequency(cfg, best, windowLength)) return highFrequencyLoop(cfg, kept[newest]!, best, windowLength);
  }

  if (cfg.periodic) {
    for (let period = 2; period <= cfg.maxPeriod; period++) {
      const span = period * cfg.periodRepeats;
      if (n < span) break;
      let repeats = true;
      for (let i = n - span + period; i < n && repeats; i++) repeats = same(i, i - period);
      if (repeats && run < period) return periodicLoop(cfg, kept.slice(n - period));
    }
  }

  if (cfg.stateAware && n >= cfg.unchangedStateActions) {
    const hash = kept[n - 1]!.stateHash;
    let unchanged = 0;
    while (hash !== undefined && unchanged < n && kept[n - 1 - unchanged]!.stateHash === hash) unchanged++;
    if (unchanged >= cfg.unchangedStateActions) return unchangedStateLoop(cfg, kept[n - 1]!);
  }
  return null;
}

// ——— shared by findLoop and LoopDetector, so both report exactly the same ———

/** The fewest actions the window must hold for the frequency check: max(2, floor(windowSize × 0.5)). */
export function minFrequencyWindow(cfg: LoopConfig): number {
  return Math.max(2, Math.floor(cfg.windowSize * 0.5));
}

/**
 * The frequency rule for the most common count in a window of `length`
 * actions: seed 003's "exceeds", so a share equal to the threshold is no loop
 * (and a threshold of 1 turns the rule off).
 */
export function isHighFrequency(cfg: LoopConfig, count: number, length: number): boolean {
  return count >= Math.max(2, cfg.maxConsecutiveActions - 1) && count / length > cfg.frequencyThreshold;
}

export function consecutiveLoop(cfg: LoopConfig, newest: ActionRecord, windowLength: number): LoopInfo {
  const count = cfg.maxConsecutiveActions;
  return {
    type: 'consecutive_action',
    actionType: newest.type,
    count,
    windowSize: windowLength,
    details: `${actionLabel(newest, cfg.paramAware)} ran ${count} times in a row (the newest ${count} of ${windowLength} actions)`,
  };
}

export function highFrequencyLoop(cfg: LoopConfig, newest: ActionRecord, count: number, windowLength: number): LoopInfo {
  const frequency = Math.round((count / windowLength) * 100) / 100;
  return {
    type: 'high_frequency_action',
    actionType: newest.type,
    count,
    windowSize: windowLength,
    frequency,
    details: `${actionLabel(newest, cfg.paramAware)} made up ${count} of the last ${windowLength} actions (${frequency.toFixed(2)} > threshold ${cfg.frequencyThreshold})`,
  };
}

export function periodicLoop(cfg: LoopConfig, block: readonly ActionRecord[]): LoopInfo {
  const period = block.length;
  const count = period * cfg.periodRepeats;
  return {
    type: 'periodic_sequence',
    actionType: block.map((a) => a.type).join(' → '),
    count,
    windowSize: count,
    period,
    details: `the sequence ${block.map((a) => actionLabel(a, cfg.paramAware)).join(' → ')} repeated ${cfg.periodRepeats} times in full (period ${period})`,
  };
}

export function unchangedStateLoop(cfg: LoopConfig, newest: ActionRecord): LoopInfo {
  const count = cfg.unchangedStateActions;
  return {
    type: 'no_state_change',
    actionType: newest.type,
    count,
    windowSize: count,
    details: `${count} actions in a row, the newest ${newest.type}, left the state unchanged (state ${newest.stateHash})`,
  };
}
