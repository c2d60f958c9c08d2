/**
 * detectLoops: watches a stream of executed actions and emits a {@link LoopInfo}
 * when the newest actions form a loop (seed 003's consecutive and
 * high-frequency rules, plus periodic, parameter-aware and state-aware ones;
 * see `findLoop`). Incremental: amortised O(1) per action over a ring buffer,
 * with its own state per subscription.
 *
 * One loop raises one LoopInfo: after a report the history is cleared, and
 * the next `cooldownActions` actions (default 5) report nothing.
 *
 *   actions:                                           -a-a-a-a-a-a-a-a-|
 *   detectLoops({ windowSize: 6, cooldownActions: 0 }): -----x-----x-----|   (x: consecutive_action of a)
 *   detectLoops({ windowSize: 6, cooldownActions: 3 }): -----x-------x---|
 *
 * Options: the `loopDetection` settings (windowSize 5, maxConsecutiveActions 3,
 * frequencyThreshold 0.7, ignoreThinkingActions true, cooldownActions 5,
 * periodic true, maxPeriod 4, periodRepeats 2, paramAware false, stateAware
 * true, unchangedStateActions 8). Invalid values take their defaults; use
 * `resolveLoopConfig` to see the warnings.
 */
import { defer, filter, map, type OperatorFunction } from 'rxjs';
import type { LoopConfig, LoopConfigInput } from '../mind/loopConfig.js';
import type { ActionRecord, LoopInfo } from '../mind/loopDetection.js';
import { LoopDetector } from '../mind/loopDetector.js';

export function detectLoops(config?: LoopConfigInput | LoopConfig): OperatorFunction<ActionRecord, LoopInfo> {
  return (actions$) =>
    defer(() => {
      const detector = new LoopDetector(config);
      return actions$.pipe(
        map((action) => detector.push(action)),
        filter((loop): loop is LoopInfo => loop !== null),
      );
    });
}
