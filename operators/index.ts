/**
 * ooda-rx/operators: the pipeable operators of the cycle, for composing your own.
 */
export { act, actStage } from './act.js';
export { consolidate, consolidateNow } from './consolidate.js';
export { decide, decideStage } from './decide.js';
export { detectLoops } from './detectLoops.js';
export { feedback, type FeedbackOptions } from './feedback.js';
export { intake } from './intake.js';
export { interveneOnLoops } from './interveneOnLoops.js';
export { observe, observeStage } from './observe.js';
export { orient, orientStage } from './orient.js';
export { perceive, perceiveOne, type Perception } from './perceive.js';
export { recover, recoverFrom, type RecoverOptions } from './recover.js';
export { stamp } from './stamp.js';
export { toolContext } from './toolContext.js';
