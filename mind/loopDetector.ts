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
import { asLoopConfig, type LoopConfig, type LoopConfigInput } from './loopConfig.js';
import {
  actionKey,
  consecutiveLoop,
  highFrequencyLoop,
  isHighFrequency,
  minFrequencyWindow,
  periodicLoop,
  unchangedStateLoop,
  type ActionRecord,
  type LoopInfo,
} from './loopDetection.js';

export class LoopDetector {
  readonly config: LoopConfig;
  /** Ring of the newest keys and types; long enough for the window and the longest period. */
  private readonly keys: string[];
  private readonly types: string[];
  private readonly capacity: number;
  /** Actions since the last clear. */
  private total = 0;
  /** Per key: occurrences in the window. */
  private readonly counts = new Map<string, number>();
  /** Per count c ≥ 1: how many keys occur c times in the window. */
  private readonly keysWithCount: Int32Array;
  /** The most common key's count in the window. */
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
    this.keys = new Array<string>(this.capacity).fill('');
    this.types = new Array<string>(this.capacity).fill('');
    this.keysWithCount = new Int32Array(this.config.windowSize + 2);
    this.periodRun = new Int32Array(this.config.maxPeriod + 1);
  }

  /** Records an executed action; returns the loop it completes, or null. */
  push(action: ActionRecord): LoopInfo | null {
    const cfg = this.config;
    if (cfg.ignoreThinkingActions && action.thinking) return null;
    const key = actionKey(action, cfg.paramAware);
    const n = this.total;
    const slot = n % this.capacity;

    this.sameRun = n > 0 && this.keys[(n - 1) % this.capacity] === key ? this.sameRun + 1 : 1;
    if (cfg.periodic) {
      for (let p = 2; p <= cfg.maxPeriod; p++) {
        this.periodRun[p] = n >= p && this.keys[(n - p) % this.capacity] === key ? this.periodRun[p] + 1 : 0;
      }
    }
    if (n >= cfg.windowSize) this.uncount(this.keys[(n - cfg.windowSize) % this.capacity]!);
    this.keys[slot] = key;
    this.types[slot] = action.type;
    this.count(key);
    const hash = action.stateHash;
    this.stateRun = hash === undefined ? 0 : n > 0 && hash === this.lastHash ? this.stateRun + 1 : 1;
    this.lastHash = hash;
    this.total = n + 1;

    if (this.quiet > 0) {
      this.quiet--;
      return null;
    }
    const loop = this.find(key, action);
    if (loop) {
      this.clear();
      this.quiet = cfg.cooldownActions;
    }
    return loop;
  }

  /** Forgets every action (a cooldown in progress continues). */
  clear(): void {
    this.total = 0;
    this.counts.clear();
    this.keysWithCount.fill(0);
    this.best = 0;
    this.sameRun = 0;
    this.periodRun.fill(0);
    this.stateRun = 0;
    this.lastHash = undefined;
  }

  private find(key: string, action: ActionRecord): LoopInfo | null {
    const cfg = this.config;
    const windowLength = Math.min(this.total, cfg.windowSize);
    if (windowLength >= cfg.maxConsecutiveActions && this.sameRun >= cfg.maxConsecutiveActions) {
      return consecutiveLoop(cfg, action.type, key, windowLength);
    }
    if (windowLength >= minFrequencyWindow(cfg) && isHighFrequency(cfg, this.best, windowLength)) {
      const slot = this.newestWithCount(this.best);
      return highFrequencyLoop(cfg, this.types[slot]!, this.keys[slot]!, this.best, windowLength);
    }
    if (cfg.periodic) {
      for (let p = 2; p <= cfg.maxPeriod; p++) {
        if (this.periodRun[p] >= p * (cfg.periodRepeats - 1) && this.sameRun < p) return this.periodic(p);
      }
    }
    if (cfg.stateAware && this.stateRun >= cfg.unchangedStateActions) {
      return unchangedStateLoop(cfg, action.type, action.stateHash!);
    }
    return null;
  }

  private periodic(period: number): LoopInfo {
    const types: string[] = [];
    const keys: string[] = [];
    for (let i = this.total - period; i < this.total; i++) {
      types.push(this.types[i % this.capacity]!);
      keys.push(this.keys[i % this.capacity]!);
    }
    return periodicLoop(this.config, period, types, keys);
  }

  /** The ring slot of the newest key in the window whose count is `count`. */
  private newestWithCount(count: number): number {
    for (let i = this.total - 1; ; i--) {
      const slot = i % this.capacity;
      if (this.counts.get(this.keys[slot]!) === count) return slot;
    }
  }

  private count(key: string): void {
    const c = this.counts.get(key) ?? 0;
    this.counts.set(key, c + 1);
    if (c > 0) this.keysWithCount[c]--;
    this.keysWithCount[c + 1]++;
    if (c + 1 > this.best) this.best = c + 1;
  }

  private uncount(key: string): void {
    const c = this.counts.get(key)!;
    if (c === 1) this.counts.delete(key);
    else this.counts.set(key, c - 1);
    this.keysWithCount[c]--;
    if (c > 1) this.keysWithCount[c - 1]++;
    if (c === this.best && this.keysWithCount[c] === 0) this.best = c - 1;
  }
}
