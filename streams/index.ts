/**
 * ooda-rx: a reactive runtime for goal-driven agents on RxJS.
 *
 * The public API: the agent (`createAgent`), the contracts (signals, events,
 * config), the mind and its tools, the sources and the sinks. Operators are in
 * `ooda-rx/operators`; marble-testing helpers in `ooda-rx/testing`.
 */
export { builtinCommands } from './commands.js';
export {
  AgentConfig,
  ConfigError,
  configFromEnvironment,
  defaultConfig,
  MAX_TIMER_MS,
  readConfigFile,
  resolveConfig,
  type AgentConfigInput,
  type ConfigLayer,
} from './config.js';
export { configFromSeedEnvironment, SEED_VARIABLES } from './seedEnvironment.js';
export { createAgent, type Agent, type AgentOptions, type EnterHook, type Entering, type AgentSources, type Stages } from './createAgent.js';
export { beginCycle, record, vetoCycle, type Cycle, type Watcher } from './cycle.js';
export { CycleDriver, type DriverOptions } from './driver.js';
export { EVENT_KINDS, EventEnvelope, type AgentEvent, type Draft, type EventBody, type EventHeader, type EventKind, type EventOf } from './events.js';
export { knowledgeAndGoals, startProgram, type ProgramIO, type ProgramOptions, type RunningProgram } from './program.js';
export { readText } from './readableFile.js';
export { runCommand, runLocalAgent, type LocalAgentOptions } from './localAgent.js';
export { REPL_HELP, runRepl, type ReplOptions } from './repl.js';
export { formatPlans, formatReflection } from './planningText.js';
export { planningCommands } from './planningCommands.js';
export { saveCommand } from './saveCommand.js';
export { startPersistentProgram } from './persistentProgram.js';
export { Persistence, type PersistenceContext, type PersistenceOptions, type Resumed } from './session.js';
export { StartInterrupted, StartUp } from './startUp.js';
export { loadRecording, replayOn, replaySession, type Recording, type ReplayResult } from './replay.js';
export { DivergenceCheck, type Divergence } from './divergenceCheck.js';
export type { EffectKey, EffectLog, EffectOutcome, RecordedEffect } from './effects.js';
export { eventFromRow, storedMindState } from './storedState.js';
export { createRuntime, type CommandHandler, type Runtime } from './runtime.js';
export * from './signals.js';
export { validateSignal, type SignalValidation, type TransportRule } from './validateSignal.js';
export * from './wsProtocol.js';
export { agentSnapshot, type SnapshotOptions } from './snapshot.js';

export { Mind, MindState, type ForgetFailure, type MindExtension, type MindOptions, type ScoreAdjusters } from '../mind/mind.js';
export { MindConfig } from '../mind/config.js';
export type { Goal, GoalBook, GoalStatus, NewGoal } from '../mind/goals.js';
export type { GoalTerms } from '../mind/goalTerms.js';
export type { GoalChange, Outcome, Progress } from '../mind/goalEvaluation.js';
export type { Observation, Orientation } from '../mind/observation.js';
export type { MemoryEntry, MemoryKind, NewMemoryEntry, WorkingMemory } from '../mind/workingMemory.js';
export type { Episode, EpisodicMemory } from '../mind/episodicMemory.js';
export type { DecisionLog } from '../mind/decisionLog.js';
export type { ToolRegistry } from '../mind/toolRegistry.js';
export type { PendingQuestions } from '../mind/questions.js';
export type { Library, Passage } from '../mind/library.js';
export type { SeededRandom } from '../mind/random.js';
export { KnowledgeGraph, symbolId, type Activation, type Triple, type TriplePattern } from '../mind/knowledgeGraph.js';
export { HypervectorSpace, similarity, type Hypervector } from '../mind/hypervector.js';
export { notRerun, ToolFailure, type Danger, type Fact, type ProposalContext, type ScoringContext, type Tool, type ToolContext, type ToolOutput, type ToolScoring } from '../mind/tool.js';
export type { AsJson } from '../mind/jsonCopy.js';
export { Journal } from '../mind/journal.js';
export { builtinTools } from '../mind/tools/index.js';
export { formatBreakdown, parseBreakdown, totalScore, type ScoreParts } from '../mind/utility.js';
export type { Decision } from '../mind/toolSelection.js';
export { Planner, PLAN_BONUS, type ActionReport, type PlanProgress } from '../mind/planner.js';
export type { Plan, PlanStep, PlanChange, PlanChangeKind } from '../mind/plan.js';
export { STRATEGY_PATTERNS, StrategyMatcher, type StrategyName } from '../mind/strategies.js';
export { Psyche, DEFAULT_ARCHETYPES, DEFAULT_SHADOW, type Evolution } from '../mind/psyche.js';
export type { Archetype, PsycheOptions, ShadowPattern } from '../mind/psycheOptions.js';
export { Reflection, type Adjustment, type CycleReport, type ReflectionReport, type ReflectOptions, type ToolEffectiveness } from '../mind/reflection.js';
export { SkillRegistry, type ProposedAction, type Skill, type SkillContext, type SkillReview, type Verdict } from '../mind/skills.js';
export { policySkill } from '../mind/policySkill.js';
export { findLoop, type ActionRecord, type LoopInfo, type LoopType } from '../mind/loopDetection.js';
export { LoopDetector, type LoopDetectorState } from '../mind/loopDetector.js';
export {
  defaultLoopConfig,
  LoopConfig,
  resolveLoopConfig,
  type LoopConfigInput,
  type LoopConfigWarning,
} from '../mind/loopConfig.js';
export { INTERVENTION_PREFIX, isInterventionGoal, type PlanDropper } from '../mind/intervention.js';
export { detectLoops } from '../operators/detectLoops.js';
export { interveneOnLoops } from '../operators/interveneOnLoops.js';

export { fromNdjson, type NdjsonOptions } from '../sources/ndjson.js';
export { heartbeat } from '../sources/heartbeat.js';
export { sensor } from '../sources/sensor.js';
export { vitals } from '../sources/vitals.js';
export { fromGoals } from '../sources/goals.js';

export { toLines, type LineSink, type LineSinkOptions } from '../sinks/lineWriter.js';
export { toNdjson, type NdjsonSink, type NdjsonSinkOptions } from '../sinks/ndjson.js';
export { describe as describeEvent, toPrettyLog } from '../sinks/prettyLog.js';
export { tokenProblem, WsServer, type ConnectionListener, type WsClient, type WsServerOptions } from '../sinks/wsServer.js';
export { hostProblem, originProblem } from '../sinks/requestGuard.js';
export { toWebSocket, type WebSocketSink, type WebSocketSinkOptions } from '../sinks/toWebSocket.js';
export { fromWebSocket, type WebSocketInputOptions } from '../sources/wsInput.js';
export { SqliteStore, type EventQuery, type StoreAccess, type StoreOptions, type Synchronous } from '../sinks/sqliteStore.js';
export { pruneSessions, type PruneOptions, type PrunedSession } from '../sinks/sessionPruning.js';
export type { EventRow, SessionRow, SignalRow, SnapshotRow } from '../sinks/storeSchema.js';
export type { InsertRows, InsertTable, SqlStatement } from '../sinks/storeRows.js';
export type { WriteBatch } from '../sinks/writeBatch.js';
export { StoreError } from '../sinks/storeError.js';
export { OutputError } from '../sinks/outputError.js';
export { storeFileProblem } from '../sinks/storeFile.js';
export { toSqlite, type SqliteSink, type SqliteSinkOptions } from '../sinks/toSqlite.js';
export { demoGoals, demoKnowledgeFile } from './demo.js';
export { packageRoot } from './packageRoot.js';
