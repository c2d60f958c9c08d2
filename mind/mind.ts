/**
 * The mind: everything the agent knows and wants, as plain state with no RxJS
 * and no I/O. Goals, working memory, episodic memory, the knowledge graph, the
 * per-goal decision log, the tools, the cycle count and the seeded random
 * source live here.
 *
 * Every mutation is journaled: `checkpoint()` marks the state as a signal
 * enters and `rollback()` restores exactly that state. `toJSON()` /
 * `Mind.fromJSON()` serialise the whole state (validated by zod).
 */
import { z } from 'zod';
import type { MindConfig } from './config.js';
import { DecisionLog } from './decisionLog.js';
import { Episode, EpisodicMemory } from './episodicMemory.js';
import { Goal, GoalBook, type NewGoal } from './goals.js';
import { GoalTermsCache, type GoalTerms } from './goalTerms.js';
import { checkMindOptions, mindConfigOption } from './mindConfigOption.js';
import { Journal } from './journal.js';
import { ExtensionRegistry } from './extensionRegistry.js';
import { HypervectorSpace } from './hypervector.js';
import { issueMessage } from './issueMessage.js';
import { KnowledgeGraph, Triple } from './knowledgeGraph.js';
import { Library } from './library.js';
import { PendingQuestions } from './questions.js';
import { RandomState, SeededRandom } from './random.js';
import type { Tool } from './tool.js';
import { ToolRegistry } from './toolRegistry.js';
import { MemoryEntry, WorkingMemory, type NewMemoryEntry } from './workingMemory.js';

export const Provenance = z.object({
  cycle: z.number().int(),
  at: z.number(),
  goalId: z.string(),
  tool: z.string(),
  score: z.number(),
  breakdown: z.string(),
  status: z.enum(['ok', 'failed', 'vetoed']),
  progress: z.enum(['completed', 'advanced', 'failed', 'none']),
});
export type Provenance = z.infer<typeof Provenance>;

export const MindState = z.object({
  version: z.literal(1),
  cycle: z.number().int().nonnegative(),
  paused: z.boolean(),
  goals: z.array(Goal),
  /** The finished goals' ids in the order they finished (the order they are retired in); a state without it retires them in creation order. */
  goalsFinished: z.array(z.string()).default([]),
  memory: z.object({ capacity: z.number().int().positive(), nextId: z.number().int(), entries: z.array(MemoryEntry) }),
  episodes: z.array(Episode),
  /** Episodes retired before those in `episodes` (see `episodesKept`). */
  episodesRetired: z.number().int().nonnegative().default(0),
  graph: z.object({ symbols: z.array(z.tuple([z.string(), z.string()])), triples: z.array(Triple) }),
  decisions: z.record(z.string(), z.object({ recent: z.array(z.string()), used: z.array(z.string()) })),
  provenance: z.array(Provenance),
  random: RandomState,
  /** Tools whose bad scoring has been reported (once per tool per mind, across resumes). */
  badScoringReported: z.array(z.string()).default([]),
  /** Extension state (plans, psyche, …) keyed by extension name. */
  extensions: z.record(z.string(), z.unknown()).default({}),
});
export type MindState = z.infer<typeof MindState>;

/**
 * Something that extends the mind with its own journaled state (plans, psyche,
 * pending questions). It contributes score parts through the hooks it sets.
 */
export interface MindExtension {
  readonly name: string;
  toJSON(): unknown;
  load(json: unknown): void;
  /** Drops what the extension keeps for a goal that has been retired (see `Mind.checkpoint`); called between passes. */
  forgetGoal?(goalId: string): void;
}

/**
 * Score parts contributed by extensions: the psyche's archetype bias
 * (±0.07) and a plan's bonus for the tool of its next step.
 */
export interface ScoreAdjusters {
  archetype(goal: Goal, tool: Tool): number;
  /** The plan bonus, or undefined when no plan steers this goal. */
  plan(goal: Goal, tool: Tool): number | undefined;
}

export const NO_ADJUSTMENT: ScoreAdjusters = { archetype: () => 0, plan: () => undefined };

export interface MindOptions {
  config?: MindConfig;
  /** Tools to register, in order; defaults to none (see `builtinTools()`). */
  tools?: Iterable<Tool>;
  seed?: number;
}

/** An extension's `forgetGoal` that threw as a goal was retired (see `Mind.checkpoint`). */
export interface ForgetFailure {
  readonly extension: string;
  readonly goalId: string;
  readonly message: string;
}

const NO_FAILURES: readonly ForgetFailure[] = [];

/** How many provenance records the mind keeps (the store keeps them all). */
export const PROVENANCE_KEPT = 256;

export class Mind {
  readonly journal = new Journal();
  readonly config: MindConfig;
  readonly goals: GoalBook;
  readonly memory: WorkingMemory;
  readonly episodes: EpisodicMemory;
  readonly graph: KnowledgeGraph;
  private readonly terms: GoalTermsCache;
  readonly decisions: DecisionLog;
  readonly tools: ToolRegistry;
  /** The mind's extensions by name (plans, psyche, questions, the library, yours). */
  readonly extensions = new ExtensionRegistry();
  /** The hypervector space of tool profiles, goal vectors, symbol vectors and library passages (10,000 bits). */
  readonly space = new HypervectorSpace();
  /** Questions user_interact asked and is waiting for (extension `questions`). */
  readonly questions: PendingQuestions;
  /** Documents ingested for library_search (extension `library`). */
  readonly library: Library;
  /** Psyche and plan contributions to decide; none until those extensions exist. */
  adjusters: ScoreAdjusters = NO_ADJUSTMENT;
  random: SeededRandom;
  private provenanceLog: Provenance[] = [];
  private cycleCount = 0;
  private isPaused = false;

  constructor(options: MindOptions = {}) {
    checkMindOptions(options);
    this.config = mindConfigOption(options.config, options.seed);
    this.goals = new GoalBook(this.journal);
    this.memory = new WorkingMemory(this.journal, this.config.workingMemoryCapacity);
    this.episodes = new EpisodicMemory(this.journal);
    this.graph = new KnowledgeGraph(this.journal);
    this.terms = new GoalTermsCache(this.graph);
    this.decisions = new DecisionLog(this.journal);
    this.tools = new ToolRegistry(options.tools ?? []);
    this.random = new SeededRandom(options.seed ?? this.config.seed, this.journal);
    this.questions = new PendingQuestions(this.journal);
    this.library = new Library(this.journal, this.space);
    this.registerExtension(this.questions);
    this.registerExtension(this.library);
  }

  /** Cycles run so far (a cycle is one decide + act). */
  get cycle(): number {
    return this.cycleCount;
  }

  /** Starts the next cycle and returns its number. */
  nextCycle(): number {
    this.cycleCount++;
    this.journal.record(() => {
      this.cycleCount--;
    });
    return this.cycleCount;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  setPaused(paused: boolean): void {
    const before = this.isPaused;
    this.isPaused = paused;
    this.journal.record(() => {
      this.isPaused = before;
    });
  }

  /** A deterministic id: `goal-1`, `episode-3`, … */
  id(prefix: string): string {
    return this.random.id(prefix);
  }

  /** Adds a goal; the stall threshold defaults to the config's. */
  addGoal(spec: Omit<NewGoal, 'id' | 'stallThreshold' | 'createdCycle'> & { stallThreshold?: number }): Goal {
    return this.goals.add({
      ...spec,
      id: this.id('goal'),
      stallThreshold: spec.stallThreshold ?? this.config.stallThreshold,
      createdCycle: this.cycleCount,
    });
  }

  /** Adds a working-memory entry stamped with the current cycle. */
  remember(entry: NewMemoryEntry): MemoryEntry {
    return this.memory.push(entry, this.cycleCount);
  }

  /** Records a provenance entry for a decision (seed 001: AgentDecision). */
  recordProvenance(record: Provenance): void {
    const log = this.provenanceLog;
    if (log.length >= 2 * PROVENANCE_KEPT) {
      // Appended in place; trimmed (to a new array, so undo can put the old one back) once it holds twice what is kept.
      this.provenanceLog = log.slice(-(PROVENANCE_KEPT - 1));
      this.journal.record(() => {
        this.provenanceLog = log;
      });
    }
    this.provenanceLog.push(record);
    this.journal.record(() => {
      this.provenanceLog.pop();
    });
  }

  /** The newest {@link PROVENANCE_KEPT} provenance records, oldest first. */
  get provenance(): readonly Provenance[] {
    const log = this.provenanceLog;
    return log.length > PROVENANCE_KEPT ? log.slice(-PROVENANCE_KEPT) : log;
  }

  /** The goal's symbols, criteria terms and clauses (see {@link GoalTermsCache}). Shared: read-only. */
  goalTerms(goal: Goal): GoalTerms {
    return this.terms.of(goal);
  }

  /**
   * A short hash of the knowledge and goal state, for state-aware loop
   * detection: it changes when knowledge is added, an episode is stored, or a
   * goal is added or changes status, progress or priority. O(1): the goal
   * part is kept up to date by the goal book.
   */
  stateHash(): string {
    let h = 0x811c9dc5;
    h = Math.imul(h ^ this.graph.knowledgeSize, 0x01000193) >>> 0;
    h = Math.imul(h ^ this.episodes.stored, 0x01000193) >>> 0;
    h = Math.imul(h ^ this.goals.digest, 0x01000193) >>> 0;
    return h.toString(16).padStart(8, '0');
  }

  /**
   * Marks the state a signal entered with (see `rollback`). First retires the
   * goals that finished longest ago, past `finishedGoalsKept`, with their
   * decision history and what extensions keep for them (their plans), and the
   * oldest episodes past `episodesKept` and library documents past
   * `documentsKept`: done here, between passes, so no
   * rollback brings them back, and a long run's state stays bounded. Their
   * events stay in the store. An extension whose `forgetGoal` throws does not
   * stop the rest (the goal is retired all the same, the checkpoint is
   * taken): the failures are returned, for the caller to report.
   */
  checkpoint(): readonly ForgetFailure[] {
    let failures: ForgetFailure[] | undefined;
    if (this.goals.finishedCount > this.config.finishedGoalsKept) {
      for (const goal of this.goals.retireFinished(this.config.finishedGoalsKept)) {
        this.decisions.forget(goal.id);
        for (const extension of this.extensions.values()) {
          try {
            extension.forgetGoal?.(goal.id);
          } catch (error) {
            (failures ??= []).push({ extension: extension.name, goalId: goal.id, message: error instanceof Error ? error.message : String(error) });
          }
        }
      }
    }
    this.episodes.retireOldest(this.config.episodesKept);
    this.library.retireOldest(this.config.documentsKept);
    this.journal.checkpoint();
    return failures ?? NO_FAILURES;
  }

  /** Restores the state at the last checkpoint exactly. */
  rollback(): void {
    this.journal.rollback();
    this.terms.clear();
  }

  /** The registered extension `name`, when it is a `kind`. */
  extension<T extends MindExtension>(name: string, kind: Function & { prototype: T }): T | undefined {
    const found = this.extensions.get(name);
    return found instanceof kind ? (found as T) : undefined;
  }

  /** The mind's extension `name`: the registered one, or `create()`'s, registered on first use. */
  attachExtension<T extends MindExtension>(name: string, kind: Function & { prototype: T }, create: () => T): T {
    const existing = this.extension(name, kind);
    if (existing) return existing;
    const made = create();
    this.registerExtension(made);
    return made;
  }

  /** Adds an extension (see {@link ExtensionRegistry.register}). */
  registerExtension(extension: MindExtension): void {
    this.extensions.register(extension);
  }

  toJSON(): MindState {
    return {
      version: 1,
      cycle: this.cycleCount,
      paused: this.isPaused,
      goals: this.goals.toJSON(),
      goalsFinished: this.goals.finishedInOrder().map((goal) => goal.id),
      memory: this.memory.toJSON(),
      episodes: this.episodes.toJSON(),
      episodesRetired: this.episodes.stored - this.episodes.size,
      graph: this.graph.toJSON(),
      decisions: this.decisions.toJSON(),
      provenance: this.provenance.map((p) => ({ ...p })),
      random: this.random.toJSON(),
      badScoringReported: this.tools.badScoringReported,
      extensions: this.extensions.toJSON(),
    };
  }

  /**
   * Replaces the whole state with a validated saved state. All or nothing: a
   * value that is no mind state is a TypeError naming its first bad field
   * (`Mind.restore: not a mind state: goals.0.description: …`); when an
   * extension cannot load its part (its error names it), the mind is put
   * back as it was and the error thrown.
   */
  restore(json: unknown): void {
    const parsed = MindState.safeParse(json, { error: issueMessage });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new TypeError(`Mind.restore: not a mind state: ${issue.path.join('.') || 'state'}: ${issue.message}`, { cause: parsed.error });
    }
    const state = parsed.data;
    const before = this.savedState();
    try {
      this.load(state);
    } catch (error) {
      if (before) this.load(before);
      throw error;
    }
  }

  /** The current state, to put back; undefined when an extension's state does not serialise (then nothing can be put back). */
  private savedState(): MindState | undefined {
    try {
      return MindState.parse(this.toJSON());
    } catch {
      return undefined;
    }
  }

  /** Replaces the whole state with `state`, extensions last. */
  private load(state: MindState): void {
    this.cycleCount = state.cycle;
    this.isPaused = state.paused;
    this.goals.load(state.goals, state.goalsFinished);
    this.memory.load(state.memory);
    this.episodes.load(state.episodes, state.episodesRetired);
    this.graph.load(state.graph);
    this.decisions.load(state.decisions);
    this.provenanceLog = state.provenance;
    this.random = SeededRandom.fromJSON(state.random, this.journal);
    this.tools.loadBadScoringReported(state.badScoringReported);
    this.extensions.load(state.extensions);
    this.journal.checkpoint();
    this.terms.clear();
  }

  static fromJSON(json: unknown, options: MindOptions = {}): Mind {
    const mind = new Mind(options);
    mind.restore(json);
    return mind;
  }
}
