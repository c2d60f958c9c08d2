/**
 * The composition root: wires sources → perceive → feedback(observe → orient →
 * plan → decide → verify → act → consolidate) → watchers (followPlans, reflect,
 * interveneOnLoops, then yours) → events, shared by every sink.
 *
 * ```ts
 * const agent = createAgent({ config: { maxCycles: 20 } });
 * const events$ = agent.run({ inputs: [fromNdjson(process.stdin)] });
 * events$.subscribe(toNdjson(process.stdout));
 * events$.connect();
 * ```
 *
 * The run ends when input has ended and nothing is left to do, at `maxCycles`,
 * on a `stop` command, or on `agent.stop()`: sources stop first, in-flight
 * work drains, then the event stream completes (sinks flush on completion).
 * A pass still waiting on a tool once the stopping task is over is abandoned
 * (`runtime.abandon$`): a transient `error` event says so, naming the tool, and its late
 * result is discarded.
 *
 * Options are checked at once: a bad one throws, naming it (`watchers[0] is
 * not a function (got 42)`, `scheduler must be a SchedulerLike …`, a
 * misspelt `createAgent takes no option "tool" …`, or a ConfigError for
 * `config`; see streams/agentOptions.ts).
 *
 * A pass happens at one instant: while it runs, `runtime.now()` is the time it
 * began (a rejected line's pass too, whenever the line came in), so its events
 * carry one time and a replay at the recorded times reproduces them exactly.
 */
import {
  asyncScheduler,
  catchError,
  concat,
  concatMap,
  connectable,
  defer,
  filter,
  finalize,
  from,
  identity,
  ignoreElements,
  map,
  merge,
  mergeMap,
  of,
  pipe,
  queueScheduler,
  ReplaySubject,
  Subject,
  subscribeOn,
  takeUntil,
  tap,
  type Connectable,
  type Observable,
} from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import { Mind } from '../mind/mind.js';
import { policySkill } from '../mind/policySkill.js';
import { Psyche } from '../mind/psyche.js';
import { SkillRegistry } from '../mind/skills.js';
import { builtinTools } from '../mind/tools/index.js';
import { abandonable } from '../operators/abandonable.js';
import { act } from '../operators/act.js';
import { consolidate } from '../operators/consolidate.js';
import { decide } from '../operators/decide.js';
import { feedbackChain } from '../operators/feedback.js';
import { followPlans } from '../operators/followPlans.js';
import { interveneOnLoops } from '../operators/interveneOnLoops.js';
import { buildWatcher, isolateWatcher } from '../operators/isolateWatcher.js';
import { observe } from '../operators/observe.js';
import { orient } from '../operators/orient.js';
import { perceiveOne } from '../operators/perceive.js';
import { plan } from '../operators/plan.js';
import { reflect } from '../operators/reflect.js';
import { stamp } from '../operators/stamp.js';
import { verify } from '../operators/verify.js';
import { builtinCommands } from './commands.js';
import { checkMindConfig, checkOptionKeys, checkScalarOptions, commandsOption, configOption, cycleOperator, listOption, registerEach, type AgentOptions, type AgentSources, type Entering, type Stages } from './agentOptions.js';
import { passEvents } from './passEvents.js';
import { SourceAdmission } from './sourceEntries.js';
import { checkSources } from './sourcesCheck.js';
import { record, type Cycle, type Watcher } from './cycle.js';
import { CycleDriver } from './driver.js';
import { enterPass, reportEnterErrors } from './enterHook.js';
import type { AgentEvent, Draft } from './events.js';
import { admitInjected } from './injection.js';
import { isObject } from './isObject.js';
import { claimMind } from './liveMinds.js';
import { planningCommands } from './planningCommands.js';
import type { Agent } from './agent.js';
import { createRuntime } from './runtime.js';
import { schedulerClock } from './schedulerClock.js';
import { CYCLE_SIGNAL_TYPES, type Signal, type Stimulus } from './signals.js';

export type { Agent } from './agent.js';
export type { AgentOptions, AgentSources, EnterHook, Entering, Stages } from './agentOptions.js';

/** The watchers every agent runs before its own. */
const DEFAULT_WATCHERS: readonly Watcher[] = [followPlans, reflect, interveneOnLoops];


/** A pass that only reports a rejected stimulus. */
function rejectionPass(rejected: Draft<'rejected'>): Cycle {
  const meta = rejected.line === undefined ? { source: rejected.source } : { source: rejected.source, line: rejected.line };
  return { signal: { type: 'rejected', depth: 0, meta, reason: rejected.reason }, events: [rejected] };
}

export function createAgent(options: AgentOptions = {}): Agent {
  checkOptionKeys(options);
  checkScalarOptions(options);
  const config = configOption(options.config);
  const watcherOptions = listOption('watchers', options.watchers, 'a function', (w) => typeof w === 'function');
  const toolOptions = listOption('tools', options.tools, 'an object', isObject);
  const skillOptions = listOption('skills', options.skills, 'an object', isObject);
  const commandOptions = commandsOption(options.commands);
  const scheduler = options.scheduler ?? asyncScheduler;
  const session = options.session ?? 'session-1';
  if (options.mind) checkMindConfig(options.mind, options.config, config);
  const mind = options.mind ?? new Mind({ config, tools: builtinTools(), seed: config.seed });
  registerEach('tools', toolOptions, (tool) => mind.tools.register(tool));
  Psyche.attach(mind, options.psyche);
  const skills = new SkillRegistry([policySkill]);
  registerEach('skills', skillOptions, (skill) => skills.register(skill));
  /** Halts the live run (false when there is none, or it is already halting). */
  let stopRun: (reason: string, at?: number) => boolean = () => false;
  /** Signals (or their rejections) injected while no run is connected, for the next one. */
  const queued: Entering[] = [];
  let injectEntering: (item: Entering) => boolean = (item) => (queued.push(item), true);
  let passAt: number | undefined;
  /** Passes begun so far: the pass a `passAt` belongs to. */
  let passes = 0;
  // A clock gone bad is said once, as an error signal of its own.
  const clock = schedulerClock(scheduler, (message) => injectEntering({ signal: { type: 'error', depth: 0, meta: { source: 'scheduler' }, message, severity: 'critical' } }));
  const runtime = createRuntime({
    mind,
    config,
    scheduler,
    clock,
    now: () => passAt ?? clock(),
    replaying: options.replaying ?? false,
    ...(options.effects ? { effects: options.effects } : {}),
    commands: [
      ...builtinCommands(),
      ...planningCommands(),
      // At its pass's time: a replay of the command stops when that pass does.
      ['stop', () => (stopRun('stop command', runtime.now()), 'stopping')],
      ...commandOptions,
    ],
  });
  const perceiver = { now: clock, mind, commands: runtime.commands };
  /** A stimulus perceived, as what enters a pass. */
  const perceived = (stimulus: Stimulus): Entering => {
    // Stamped on the clock: a line perceived while a pass waits on a tool came now, not when that pass began.
    const perception = perceiveOne(perceiver, stimulus);
    const entering: Entering = perception.ok ? { signal: perception.signal } : { rejected: perception.rejected };
    if (stimulus.pastMaxCycles) entering.pastMaxCycles = true;
    return entering;
  };
  const stages: Stages = {
    observe: observe(runtime),
    orient: orient(runtime),
    plan: plan(runtime),
    decide: decide(runtime),
    verify: verify(runtime, skills),
    act: act(runtime),
    consolidate: consolidate(runtime),
  };
  const cycleOp = options.cycle
    ? cycleOperator(options.cycle(stages, runtime))
    : pipe(stages.observe, stages.orient, stages.plan, stages.decide, stages.verify, stages.act, stages.consolidate);
  const chain = feedbackChain(runtime, cycleOp);
  const watchers = [
    ...DEFAULT_WATCHERS.map((w) => isolateWatcher(runtime, buildWatcher(runtime, w), w.name)),
    ...watcherOptions.map((w, i) => isolateWatcher(runtime, buildWatcher(runtime, w), `watchers[${i}]${w.name ? ` (${w.name})` : ''}`)),
  ];

  /** Whether a run's stream is live: from run() until it completes, errors or is unsubscribed. */
  let running = false;
  /** The seq of the next event: the runs of an agent share one session, so one sequence. */
  let nextSeq = options.firstSeq ?? 1;

  const run = (sources: AgentSources = {}): Connectable<AgentEvent> => {
    checkSources(sources);
    if (running) {
      throw new Error(
        `agent is already running: run() was called while an earlier run of session ${JSON.stringify(session)} is live; ` +
          "stop it (agent.stop()) and call run() again once its stream has completed, or create another agent to run at the same time",
      );
    }
    const releaseMind = claimMind(mind, session);
    running = true;
    let ended = false;
    // Replayed: a run halted before it is connected subscribes to it afterwards.
    const halt$ = new ReplaySubject<void>(1);
    const internal$ = new Subject<Entering>();
    let halted = false;
    let haltReason = 'input ended';
    /** When the run was halted (a stop command's pass time; else the clock's, even while a pass waits on a tool): the `stopped` event's time, so a replay halting at that moment ends identically however long the original took to drain. */
    let haltAt: number | undefined;
    let inputsEnded = false;
    let connected = false;
    let settleScheduled = false;
    let pending = 0;
    const drive = sources.drive ?? true;
    let held = false;
    const driver = new CycleDriver(runtime, (tick) => internal$.next({ signal: tick }), { paceMs: config.paceMs, held: () => held });
    let toldHoldValue = false;
    // A hold that fails releases the run, and one that emits other than true or false holds it not, each with a rejection saying so.
    const hold$ = (sources.hold ?? of(false)).pipe(
      takeUntil(halt$),
      catchError((error: unknown) => {
        injectEntering(refused('hold')(`hold failed: ${error instanceof Error ? error.message : String(error)}; the run is no longer held`));
        return of(false);
      }),
      tap((value: unknown) => {
        if (typeof value !== 'boolean' && !toldHoldValue) {
          toldHoldValue = true;
          injectEntering(refused('hold')(`hold emitted ${describeValue(value)}, not true or false: the run is not held by it (nor by later such values, without another rejection)`));
        }
        const released = held && value !== true;
        held = value === true;
        if (released && drive) driver.wake();
      }),
    );

    /** Whether the run has nothing left to do: inputs ended, no pass in flight, no work for the driver. */
    const idle = (): boolean => inputsEnded && !sources.keepAlive && pending === 0 && !driver.busy && !(drive && driver.hasWork);
    const settleIfIdle = (): void => {
      if (halted) return;
      const atMax = drive && mind.cycle >= config.maxCycles;
      // At max cycles a live run (keepAlive) stops once its finite inputs have ended, whatever its live ones do: input already piped in is read to its end.
      if (atMax && sources.keepAlive && inputsEnded) {
        halt('max cycles reached');
        return;
      }
      if (idle()) halt(atMax ? 'max cycles reached' : idleStopReason());
    };
    /** Why a run whose inputs have ended and that has nothing left to do stops. */
    const idleStopReason = (): string => {
      if (!mind.goals.hasActive()) return 'input ended and no goal is active';
      if (mind.paused) return 'input ended (agent paused)';
      return driver.isStalled ? 'input ended with goals still active (ticks decided nothing)' : 'input ended with goals still active (cycles are stepped, not driven)';
    };
    let abandonScheduled = false;
    /** Once the current task is over, gives up on the pass in flight if it is still waiting. */
    const abandonAfterTask = (): void => {
      if (abandonScheduled) return;
      abandonScheduled = true;
      scheduler.schedule(() => {
        abandonScheduled = false;
        // Once the stream has ended nothing of this run waits, and a pass waiting now is the next run's.
        if (!ended) runtime.abandon$.next();
      });
    };
    /**
     * The stream has ended (before its subscribers hear of it): the agent may
     * run again. A stream unsubscribed mid-run is halted too (driver stopped,
     * inject refused); its reason is never reported.
     */
    const end = (): void => {
      ended = true;
      running = false;
      releaseMind();
      halt('event stream unsubscribed');
    };
    const halt = (reason: string, at = clock()): boolean => {
      if (halted) return false;
      halted = true;
      haltReason = reason;
      haltAt = at;
      driver.halt();
      abandonAfterTask();
      halt$.next();
      halt$.complete();
      if (pending === 0) internal$.complete();
      return true;
    };
    /** Settles once the current task is done, so that signals injected synchronously meanwhile are processed first. */
    const settleAfterTask = (): void => {
      if (settleScheduled) return;
      settleScheduled = true;
      scheduler.schedule(() => {
        settleScheduled = false;
        settleIfIdle();
      });
    };
    stopRun = halt;
    injectEntering = (item) => {
      if (halted) return false;
      if (connected) internal$.next(item);
      else queued.push(item);
      return true;
    };
    // Signals queued before the connection, delivered once internal$ is listened to.
    const injected$ = merge(
      internal$,
      defer(() => {
        connected = true;
        return from(queued.splice(0));
      }),
    );

    const stamped = (signal: Signal): Signal => (signal.at === undefined ? { ...signal, at: clock() } : signal);
    const enter = (signal: Signal): Entering => ({ signal: stamped(signal) });
    const admission = new SourceAdmission({ perceive: perceived, enter, commands: runtime.commands });
    const refused = (label: string) => (problem: string): Entering => admission.refused(label, problem);
    // A re-run's inputs are what the run took in, the passes it drained after its stop included: the stop does not cut them.
    const inputs$ = merge(...admission.inputs(sources.inputs), ...admission.signals(sources.signals)).pipe(
      runtime.replaying ? identity : takeUntil(halt$),
      finalize(() => {
        inputsEnded = true;
        settleAfterTask();
      }),
    );
    // Held (a saturated store): a beat or a reading that comes meanwhile is skipped, so it adds nothing to what waits to be written.
    const ambient$ = merge(...admission.ambient(sources.ambient)).pipe(
      filter((item) => !held || 'rejected' in item),
      takeUntil(halt$),
    );
    const live$ = merge(...admission.inputs(sources.live, 'live')).pipe(takeUntil(halt$));
    const incoming$ = merge(
      inputs$,
      live$,
      ambient$,
      injected$.pipe(map((item) => ('signal' in item ? enter(item.signal) : item))),
    );

    let toldMaxCycles = false;
    /**
     * Whether this is the first signal taken in after max cycles while the input
     * goes on (a line, a heartbeat): its pass says so, once: no more cycles run,
     * yet the run lasts as long as its input. Decided as it enters, so the
     * recorder keeps the mark; a replay (not driven) cannot know when the
     * recorded input ended and takes the recorded mark instead.
     */
    const isPastMaxCycles = (item: Entering): boolean => {
      if (!drive) return 'signal' in item ? item.signal.meta.pastMaxCycles === true : item.pastMaxCycles === true;
      if (toldMaxCycles || inputsEnded || halted || mind.cycle < config.maxCycles) return false;
      if ('signal' in item && CYCLE_SIGNAL_TYPES.has(item.signal.type)) return false;
      toldMaxCycles = true;
      return true;
    };
    /** The warning, on the first cycle of such a pass that is not a feedback one, unless the pass halted the run (a stop command). */
    const tellMaxCycles = (): ((cycle: Cycle) => Cycle) => {
      let told = false;
      return (cycle) => {
        if (told || halted || CYCLE_SIGNAL_TYPES.has(cycle.signal.type)) return cycle;
        told = true;
        const message = `max cycles (${config.maxCycles}) reached: no more cycles run, but the run goes on until its input ends (or a stop command, SIGINT or SIGTERM); signals that arrive meanwhile are taken in, goals are not worked on`;
        record(runtime, cycle, 'warning', { message, key: 'maxCycles' });
        return cycle;
      };
    };
    const passes$ = incoming$.pipe(
      tap(() => pending++),
      concatMap((entering) => {
        passAt = clock();
        const pass = ++passes;
        // A rejection is reported as its pass begins, like any signal (it may have waited behind a pass): a replay re-perceives the line then.
        const entered: Entering = 'rejected' in entering ? { ...entering, rejected: { ...entering.rejected, at: passAt, cycle: mind.cycle } } : entering;
        const pastMaxCycles = isPastMaxCycles(entered);
        const { item, errors } = enterPass(options.onEnter, pastMaxCycles && !entered.pastMaxCycles ? { ...entered, pastMaxCycles: true } : entered);
        // A pass that starts after the stop is abandoned too if it goes on to wait.
        if (halted) abandonAfterTask();
        const pass$: Observable<Cycle> =
          'rejected' in item ? of(rejectionPass(item.rejected)) : chain(item.signal).pipe(abandonable(runtime, item.signal));
        const reported$ = pass$.pipe(reportEnterErrors(runtime, errors));
        const body$ = pastMaxCycles ? reported$.pipe(map(tellMaxCycles())) : reported$;
        return body$.pipe(
          // Trampoline: signals buffered behind an async tool then drain iteratively, not recursively.
          subscribeOn(queueScheduler),
          finalize(() => {
            // The next pass may have begun already (one buffered behind this one begins as this one completes): its time stays.
            if (passes === pass) passAt = undefined;
            pending--;
            if (drive) {
              if ('signal' in item && item.signal.type === 'tick') driver.settled();
              else driver.wake();
            }
            if (halted && pending === 0 && !driver.busy) internal$.complete();
            else if (idle()) settleAfterTask();
            else settleIfIdle();
          }),
        );
      }),
    );
    const watched$ = watchers.reduce((stream, watcher) => stream.pipe(watcher), passes$);

    const started: Draft<'session'> = { kind: 'session', cycle: mind.cycle, at: clock(), state: 'started' };
    const events$ = concat(
      defer(() => {
        if (drive) scheduler.schedule(() => driver.wake());
        // A live run that starts at max cycles (maxCycles 0, say) stops as soon as what came in at its start is taken in: no pass may ever end to notice it.
        if (drive && sources.keepAlive) settleAfterTask();
        // Stopped before it was connected: it stops now, not before it started.
        if (halted) haltAt = undefined;
        return of<Draft>({ ...started, at: clock(), cycle: mind.cycle });
      }),
      merge(watched$.pipe(mergeMap((cycle) => from(passEvents(runtime, cycle)))), hold$.pipe(ignoreElements())),
      defer(() => of<Draft>({ kind: 'session', cycle: mind.cycle, at: haltAt ?? clock(), state: 'stopped', reason: haltReason, cycles: mind.cycle })),
    ).pipe(stamp(session, nextSeq), tap({ next: (event) => (nextSeq = event.seq + 1), complete: end, error: end, unsubscribe: end }));
    return connectable(events$, { connector: () => new Subject<AgentEvent>(), resetOnDisconnect: false });
  };

  return {
    runtime,
    mind,
    config,
    session,
    skills,
    run,
    stop: (reason = 'stopped') => {
      // An Error or a number would become the `stopped` event's reason as is: `{}` in the NDJSON and the store, the reason lost.
      if (typeof reason !== 'string') throw new TypeError(`agent.stop: reason must be a string (got ${describeValue(reason)})`);
      return stopRun(reason);
    },
    inject: (value) => {
      const admitted = admitInjected(value, runtime.commands);
      return injectEntering(admitted.ok ? { signal: admitted.signal } : perceived({ source: 'inject', problem: admitted.reason })) && admitted.ok;
    },
  };
}
