/**
 * The incremental loop detector: the rules of {@link findLoop}, kept up to date
 * action by action in a ring buffer with running counts, so each action costs
 * amortised O(1) and the window is never re-scanned (only when a
 * high-frequency loop is reported, once, to name the winning type).
 *
 * One loop raises one report: after reporting, the detector clears its history
 * and then stays quiet for `cooldownActions` actions (they are recorded). So
 * `push` answers exactly what `findLoop` answers for the actions pushed since
 * the last report, except during the cooldown, when it answers null.
 */
import { ActionIds } from './actionIdentity.js';
import { asLoopConfig, type LoopConfig, type LoopConfigInput } from './loopConfig.js';
import {
  consecutiveLoop,
  highFrequencyLoop,
  isHighFrequency,
  minFrequencyWindow,
  periodicLoop,
  unchangedStateLoop,
  type ActionRecord,
  type LoopInfo,
} from './loopDetection.js';

/**
 * A detector's state as plain data, for a mind snapshot: the actions of its
 * ring, oldest first (the newest `min(total, ring length)` since its last
 * report), and its running counts; the ids and window counts are rebuilt
 * from the actions.
 */
export interface LoopDetectorState {
  total: number;
  actions: ActionRecord[];
  sameRun: number;
  periodRun: number[];
  stateRun: number;
  lastHash?: string;
  quiet: number;
}

export class LoopDetector {
  readonly config: LoopConfig;
  /** Ring of the newest actions and their ids; long enough for the window and the longest period. */
  private readonly capacity: number;
  private readonly actions: (ActionRecord | undefined)[];
  private readonly ids: Int32Array;
  /** Equal actions share an id while they are in the ring. */
  private readonly table: ActionIds;
  /** Actions since the last clear. */
  private total = 0;
  /** Per id: occurrences in the window. */
  private readonly counts: Int32Array;
  /** Per count c ≥ 1: how many ids occur c times in the window. */
  private readonly idsWithCount: Int32Array;
  /** The most common action's count in the window. */
  private best = 0;
  /** Newest actions equal to the newest. */
  private sameRun = 0;
  /** Per period p: newest actions equal to the action p before them. */
  private readonly periodRun: Int32Array;
  /** Newest actions sharing the newest stateHash. */
  private stateRun = 0;
  private lastHash: string | undefined;
  private quiet = 0;

  constructor(config?: LoopConfigInput | LoopConfig) {
    this.config = asLoopConfig(config);
    this.capacity = Math.max(this.config.windowSize, this.config.maxPeriod);
    this.actions = new Array<ActionRecord | undefined>(this.capacity).fill(undefined);
    this.ids = new Int32Array(this.capacity);
    // One id more than the ring holds: the newest is interned before the oldest leaves.
    this.table = new ActionIds(this.capacity + 1, this.config.paramAware);
    this.counts = new Int32Array(this.capacity + 1);
    this.idsWithCount = new Int32Array(this.config.windowSize + 2);
    this.periodRun = new Int32Array(this.config.maxPeriod + 1);
  }

  /** Records an executed action; returns the loop it completes, or null. */
  push(action: ActionRecord): LoopInfo | null {
    const cfg = this.config;
    if (cfg.ignoreThinkingActions && action.thinking) return null;
    const id = this.table.acquire(action);
    const n = this.total;
    const cap = this.capacity;
    const slot = n % cap;

    this.sameRun = n > 0 && this.ids[(n - 1) % cap] === id ? this.sameRun + 1 : 1;
    if (cfg.periodic) {
      for (let p = 2; p <= cfg.maxPeriod; p++) {
        this.periodRun[p] = n >= p && this.ids[(n - p) % cap] === id ? this.periodRun[p] + 1 : 0;
      }
    }
    if (n >= cfg.windowSize) this.uncount(this.ids[(n - cfg.windowSize) % cap]);
    if (n >= cap) this.table.release(this.ids[slot]);
    this.ids[slot] = id;
    this.actions[slot] = action;
    this.count(id);
    const hash = action.stateHash;
    this.stateRun = hash === undefined ? 0 : n > 0 && hash === this.lastHash ? this.stateRun + 1 : 1;
    this.lastHash = hash;
    this.total = n + 1;

    if (this.quiet > 0) {
      this.quiet--;
      return null;
    }
    const loop = this.find(action);
    if (loop) {
      this.clear();
      this.quiet = cfg.cooldownActions;
    }
    return loop;
  }

  /** The detector's state as plain data (see {@link LoopDetectorState}). */
  toJSON(): LoopDetectorState {
    const state: LoopDetectorState = {
      total: this.total,
      actions: this.newestActions(Math.min(this.total, this.capacity)),
      sameRun: this.sameRun,
      periodRun: Array.from(this.periodRun),
      stateRun: this.stateRun,
      quiet: this.quiet,
    };
    if (this.lastHash !== undefined) state.lastHash = this.lastHash;
    return state;
  }

  /**
   * A detector in the state {@link toJSON} gave, under the same config: it
   * answers every later action exactly as the saved one would have. Undefined
   * when the state does not fit the config (another ring length or period).
   */
  static fromJSON(config: LoopConfigInput | LoopConfig, state: LoopDetectorState): LoopDetector | undefined {
    const detector = new LoopDetector(config);
    const cap = detector.capacity;
    const kept = Math.min(state.total, cap);
    if (state.actions.length !== kept || state.periodRun.length !== detector.periodRun.length) return undefined;
    const windowStart = state.total - Math.min(state.total, detector.config.windowSize);
    state.actions.forEach((action, k) => {
      const n = state.total - kept + k;
      const id = detector.table.acquire(action);
      detector.ids[n % cap] = id;
      detector.actions[n % cap] = action;
      if (n >= windowStart) detector.count(id);
    });
    detector.total = state.total;
    detector.sameRun = state.sameRun;
    detector.periodRun.set(state.periodRun);
    detector.stateRun = state.stateRun;
    detector.lastHash = state.lastHash;
    detector.quiet = state.quiet;
    return detector;
  }

  /** Forgets every action (a cooldown in progress continues). */
  clear(): void {
    this.total = 0;
    this.actions.fill(undefined);
    this.table.clear();
    this.counts.fill(0);
    this.idsWithCount.fill(0);
    this.best = 0;
    this.sameRun = 0;
    this.periodRun.fill(0);
    this.stateRun = 0;
    this.lastHash = undefined;
  }

  private find(newest: ActionRecord): LoopInfo | null {
    const cfg = this.config;
    const windowLength = Math.min(this.total, cfg.windowSize);
    if (windowLength >= cfg.maxConsecutiveActions && this.sameRun >= cfg.maxConsecutiveActions) {
      return consecutiveLoop(cfg, newest, windowLength);
    }
    if (windowLength >= minFrequencyWindow(cfg) && isHighFrequency(cfg, this.best, windowLength)) {
      return highFrequencyLoop(cfg, this.newestWithCount(this.best), this.best, windowLength);
    }
    if (cfg.periodic) {
      for (let p = 2; p <= cfg.maxPeriod; p++) {
        if (this.periodRun[p] >= p * (cfg.periodRepeats - 1) && this.sameRun < p) return periodicLoop(cfg, this.newestActions(p));
      }
    }
    if (cfg.stateAware && this.stateRun >= cfg.unchangedStateActions) return unchangedStateLoop(cfg, newest);
    return null;
  }

  /** The newest `k` actions, oldest first. */
  private newestActions(k: number): ActionRecord[] {
    const out: ActionRecord[] = [];
    for (let i = this.total - k; i < this.total; i++) out.push(this.actions[i % this.capacity]!);
    return out;
  }

  /** The newest action in the window whose id occurs `count` times there. */
  private newestWithCount(count: number): ActionRecord {
    for (let i = this.total - 1; ; i--) {
      const slot = i % this.capacity;
      if (this.counts[this.ids[slot]] === count) return this.actions[slot]!;
    }
  }

  private count(id: number): void {
    const c = this.counts[id]++;
    if (c > 0) this.idsWithCount[c]--;
    this.idsWithCount[c + 1]++;
    if (c + 1 > this.best) this.best = c + 1;
  }

  private uncount(id: number): void {
    const c = this.counts[id]--;
    this.idsWithCount[c]--;
    if (c > 1) this.idsWithCount[c - 1]++;
    if (c === this.best && this.idsWithCount[c] === 0) this.best = c - 1;
  }
}
