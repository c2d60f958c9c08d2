/**
 * The loop-detection watcher's detectors, one per goal worked on, kept with
 * the mind as its `loops` extension so that a snapshot holds them. A session
 * resumed from a snapshot — after a crash, with the signals recorded after it
 * re-applied on top — then catches the loops the recorded run caught, as it
 * caught them: with detectors that started empty at the snapshot, it missed
 * loops whose first actions came before it (and caught others), so the
 * resumed mind was not the one the store acknowledged.
 *
 * The saved state is restored only under the loop configuration it was saved
 * with; under another one (or when it cannot be read) the detectors start
 * empty, as a new run's would. Detectors change between passes (the watcher
 * runs after them), so nothing is journaled: no rollback reaches them.
 */
import { z } from 'zod';
import type { LoopConfig } from './loopConfig.js';
import { LoopDetector } from './loopDetector.js';
import type { Mind, MindExtension } from './mind.js';

const ActionRecordJson = z.object({
  type: z.string(),
  params: z.unknown().optional(),
  outcome: z.string().optional(),
  thinking: z.boolean().optional(),
  stateHash: z.string().optional(),
});

const DetectorJson = z.object({
  total: z.number().int().nonnegative(),
  actions: z.array(ActionRecordJson),
  sameRun: z.number().int().nonnegative(),
  periodRun: z.array(z.number().int().nonnegative()),
  stateRun: z.number().int().nonnegative(),
  lastHash: z.string().optional(),
  quiet: z.number().int().nonnegative(),
});

const LoopsJson = z.object({ config: z.unknown(), detectors: z.array(z.tuple([z.string(), DetectorJson])) });

export class LoopDetectors implements MindExtension {
  readonly name = 'loops';
  private readonly detectors = new Map<string, LoopDetector>();

  private constructor(private readonly config: LoopConfig) {}

  /** The mind's detectors, attached on first use with this config. */
  static attach(mind: Mind, config: LoopConfig): LoopDetectors {
    return mind.attachExtension('loops', LoopDetectors, () => new LoopDetectors(config));
  }

  /** The goal's detector, made on first use. */
  for(goalId: string): LoopDetector {
    let detector = this.detectors.get(goalId);
    if (!detector) this.detectors.set(goalId, (detector = new LoopDetector(this.config)));
    return detector;
  }

  /** Drops the goal's detector (the goal ended, or was retired from the mind). */
  forgetGoal(goalId: string): void {
    this.detectors.delete(goalId);
  }

  toJSON(): z.infer<typeof LoopsJson> {
    return { config: this.config, detectors: [...this.detectors].map(([goalId, detector]) => [goalId, detector.toJSON()]) };
  }

  load(json: unknown): void {
    this.detectors.clear();
    const parsed = LoopsJson.safeParse(json);
    if (!parsed.success || JSON.stringify(parsed.data.config) !== JSON.stringify(this.config)) return;
    for (const [goalId, state] of parsed.data.detectors) {
      const detector = LoopDetector.fromJSON(this.config, state);
      if (detector) this.detectors.set(goalId, detector);
    }
  }
}
