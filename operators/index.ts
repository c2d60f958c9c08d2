/**
 * ooda-rx/operators: the pipeable operators of the cycle, for composing your own.
 */
export { act, actStage } from './act.js';
export { consolidate, consolidateNow, consolidateStage } from './consolidate.js';
export { decide, decideStage, recordDecision } from './decide.js';
export { detectLoops } from './detectLoops.js';
export { feedback, type FeedbackOptions } from './feedback.js';
export { followPlans, actionReport } from './followPlans.js';
export { plan } from './plan.js';
export { reflect, reflectNow, type ReflectWatcherOptions } from './reflect.js';
export { verify, verifyStage, type VerifyOptions } from './verify.js';
export { recordGoalChanges, recordPlanChanges } from './changeEvents.js';
export { intake } from './intake.js';
export { interveneOnLoops } from './interveneOnLoops.js';
export { observe, observeStage } from './observe.js';
export { orient, orientStage } from './orient.js';
export { perceive, perceiveOne, type Perception, type PerceiveRuntime } from './perceive.js';
export { recover, recoverFrom, type RecoverOptions } from './recover.js';
export { stage, type Step } from './stage.js';
export { stamp } from './stamp.js';
export { proposalContext, toolContext } from './toolContext.js';
export { toolRunScope, type ToolRunScope } from './toolRunScope.js';
