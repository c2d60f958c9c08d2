// The dashboard's picture of the agent: loaded from the server's snapshot as a
// connection opens, then kept up to date by each event.
import { forgetAgentTime, noteAgentTime } from './agentClock.js';
import { alertText } from './alertText.js';
import { toast } from './dom.js';

const MAX_DECISIONS = 6;
const MAX_ALERTS = 30;
// As many as the server replays (sinks/replayHistory.ts).
const MAX_QUESTIONS = 10;
export const RATE_SAMPLES = 60;
const ALERT_KINDS = new Set(['loop', 'intervention', 'error', 'warning', 'rejected']);
const FINISHED = new Set(['Completed', 'Failed']);

export const state = {
  session: '',
  cycle: 0,
  facts: 0,
  episodes: 0,
  snapshotSeq: -1,
  paused: false,
  goals: new Map(),
  decisions: [],
  alerts: [],
  // Each goal's active plan (its latest plan event, with the steps' rationales from its `created` one), the latest reflection, and the latest event of each recent question, newest first.
  plans: new Map(),
  reflection: null,
  questions: [],
  memory: { size: 0, capacity: 100, pressure: 0 },
  rate: [],
  lastRateCycle: null,
  lastRateAt: 0,
  freshGoals: new Set(),
  // Whether the goals changed since the goal tree was last drawn.
  goalsChanged: true,
  // Finished goals in the order they finished, and the mind's bounds (from the snapshot): see retireFinished.
  finished: new Set(),
  kept: { finishedGoals: Infinity, episodes: Infinity },
};

export function loadSnapshot(snapshot) {
  state.session = snapshot.session;
  state.cycle = snapshot.cycle;
  state.paused = snapshot.paused;
  state.snapshotSeq = snapshot.seq ?? -1;
  state.facts = snapshot.facts;
  state.episodes = snapshot.episodes;
  state.goals = new Map(snapshot.goals.map((g) => [g.goalId, { ...g }]));
  state.goalsChanged = true;
  state.freshGoals.clear();
  // The snapshot lists finished goals in the order they finished.
  state.finished = new Set(snapshot.goals.filter((g) => FINISHED.has(g.status)).map((g) => g.goalId));
  state.kept = { finishedGoals: snapshot.kept?.finishedGoals ?? Infinity, episodes: snapshot.kept?.episodes ?? Infinity };
  state.memory = { size: snapshot.memory.size, capacity: snapshot.memory.capacity, pressure: snapshot.memory.pressure };
  state.decisions = snapshot.decisions
    .slice(-MAX_DECISIONS)
    .reverse()
    .map((d) => ({ key: `${d.cycle}:${d.goalId}`, cycle: d.cycle, goalId: d.goalId, tool: d.tool, score: d.score, breakdown: d.breakdown, alternatives: [], outcome: { status: d.status, progress: d.progress } }));
  state.alerts = [];
  // Each goal's active plan (one made before a restart has no event in the replay).
  state.plans = new Map((snapshot.plans ?? []).map((plan) => [plan.goalId, { kind: 'plan', ...plan }]));
  state.reflection = null;
  // The questions still waiting, newest first, as their `asked` events (those asked before a restart have none in the replay; their cycle is not known, their `askedAt` is).
  state.questions = (snapshot.questions ?? []).slice(-MAX_QUESTIONS).reverse().map((q) => ({ kind: 'question', ...q, status: 'asked' }));
  state.lastRateCycle = null;
  forgetAgentTime();
  // The agent's time as the snapshot was read (an older server sends none): an overdue question shows so at once.
  noteAgentTime(snapshot.at);
}

/**
 * Applies one event. The snapshot already includes every event up to its
 * `seq` (the replayed ones), so those only add what it lacks: decisions'
 * alternatives, alerts, plans, questions and reflections; counters and goals
 * are not touched again.
 */
export function apply(event) {
  noteAgentTime(event.at);
  if (typeof event.cycle === 'number' && event.cycle > state.cycle) state.cycle = event.cycle;
  if (event.kind === 'decision') addDecision(event);
  if (event.kind === 'action') {
    const decision = state.decisions.find((d) => d.key === `${event.cycle}:${event.goalId}`);
    if (decision) decision.outcome = { status: event.status, progress: event.progress };
  }
  if (ALERT_KINDS.has(event.kind)) {
    state.alerts.unshift({ kind: event.kind, cycle: event.cycle, text: alertText(event, state.goals) });
    state.alerts.length = Math.min(state.alerts.length, MAX_ALERTS);
  }
  if (event.kind === 'plan') setPlan(event);
  if (event.kind === 'reflection') state.reflection = event;
  if (event.kind === 'question') state.questions = [event, ...state.questions.filter((q) => q.questionId !== event.questionId)].slice(0, MAX_QUESTIONS);
  if (!(event.seq <= state.snapshotSeq)) applyLive(event);
}

/** Keeps a goal's active plan, its steps' rationales (said only as it is made) carried over; a plan that ended is dropped. */
function setPlan(event) {
  const known = state.plans.get(event.goalId);
  if (event.status !== 'Active') state.plans.delete(event.goalId);
  else {
    const rationales = known?.planId === event.planId ? known.steps : [];
    state.plans.set(event.goalId, { ...event, steps: event.steps.map((step, i) => ({ rationale: rationales[i]?.rationale, ...step })) });
  }
  state.freshGoals.add(event.goalId);
  state.goalsChanged = true;
}

/** Adds a decision, or fills in the alternatives the snapshot's copy lacks. */
function addDecision(event) {
  const key = `${event.cycle}:${event.goalId}`;
  const known = state.decisions.find((d) => d.key === key);
  if (known) {
    known.alternatives = event.alternatives ?? [];
    known.impasse = event.impasse;
    return;
  }
  state.decisions.unshift({ key, cycle: event.cycle, goalId: event.goalId, tool: event.tool, score: event.score, breakdown: event.breakdown, alternatives: event.alternatives ?? [], impasse: event.impasse });
  state.decisions.length = Math.min(state.decisions.length, MAX_DECISIONS);
}

/** What an event changes that the snapshot holds: session, goals, memory, counters, pause; commands' toasts. */
function applyLive(event) {
  if (event.session && event.session !== state.session) state.session = event.session;
  switch (event.kind) {
    case 'goal': {
      const goal = state.goals.get(event.goalId) ?? { goalId: event.goalId, childIds: [] };
      Object.assign(goal, { description: event.description, status: event.status, priority: event.priority });
      if (event.criteria !== undefined) goal.criteria = event.criteria;
      if (event.parentId) goal.parentId = event.parentId;
      state.goals.set(goal.goalId, goal);
      state.freshGoals.add(goal.goalId);
      state.goalsChanged = true;
      if (!FINISHED.has(goal.status)) state.finished.delete(goal.goalId);
      else if (!state.finished.has(goal.goalId)) state.finished.add(goal.goalId);
      retireFinished();
      break;
    }
    case 'observation':
    case 'action':
      // The graph's own count: tools add facts without `fact` events.
      state.facts = event.facts;
      setMemorySize(event.memorySize);
      // The mind's own count (absent before action events carried it): memory_recall consolidates without a `consolidation` event.
      if (typeof event.episodes === 'number') state.episodes = event.episodes;
      break;
    case 'orientation':
      setMemorySize(Math.round(event.pressure * state.memory.capacity));
      break;
    case 'fact':
      if (event.added) state.facts++;
      break;
    case 'consolidation':
      // The mind retires the oldest episodes past its bound, without an event.
      state.episodes = Math.min(state.episodes + event.episodes, state.kept.episodes);
      setMemorySize(state.memory.size - event.freed);
      break;
    case 'session':
      if (event.state === 'paused') state.paused = true;
      if (event.state === 'running' || event.state === 'started') state.paused = false;
      break;
    case 'command':
      toast(`${event.command}: ${event.result}`);
      break;
  }
}

/**
 * Drops the goals that finished longest ago past the mind's bound, as the mind
 * retires them (mind/goals.ts retireFinished, without an event): a goal whose
 * parent is still unfinished stays. So a page left open shows what a reload would.
 */
function retireFinished() {
  for (const goalId of state.finished) {
    if (state.finished.size <= state.kept.finishedGoals) break;
    const parentId = state.goals.get(goalId)?.parentId;
    if (parentId !== undefined && state.goals.has(parentId) && !state.finished.has(parentId)) continue;
    state.finished.delete(goalId);
    state.goals.delete(goalId);
  }
}

/** Sets working memory's entry count (and so its pressure). A reflection's pressure is not used: it is read before its consolidation. */
function setMemorySize(size) {
  state.memory.size = size;
  state.memory.pressure = size / state.memory.capacity;
}

/** Records the cycle rate since the last sample (called every second). */
export function sampleRate() {
  const now = performance.now();
  if (state.lastRateCycle !== null) {
    const perSecond = ((state.cycle - state.lastRateCycle) * 1000) / (now - state.lastRateAt);
    state.rate.push(Math.max(0, perSecond));
    if (state.rate.length > RATE_SAMPLES) state.rate.shift();
  }
  state.lastRateCycle = state.cycle;
  state.lastRateAt = now;
}
